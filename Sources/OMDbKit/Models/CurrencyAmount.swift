/// An amount of money as OMDb writes a box office: `$81,900,459` is 81,900,459 US dollars.
public struct CurrencyAmount: Sendable, Hashable, CustomStringConvertible {
    /// The amount, in whole units of ``currency`` (OMDb gives no cents).
    public let amount: Int
    /// The currency as OMDb writes it before the amount: `$` for US dollars, which is all OMDb
    /// sends for a box office; any other (`€`, `£`, `EUR`) is kept as it came.
    public let currency: String

    /// As OMDb writes it: `$81,900,459` (`EUR 1,500` for a currency written in letters).
    public var description: String {
        currency + (currency.last?.isLetter == true ? " " : "") + QuotaUsage.grouped(amount)
    }
}

