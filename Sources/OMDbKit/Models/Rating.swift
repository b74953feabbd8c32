/// A rating from one source, as OMDb lists it under `Ratings` (`Rotten Tomatoes`, `80%`), with
/// its value brought to one scale, out of 100, so that sources compare.
public struct Rating: Sendable, Hashable {
    /// Who rates: `Internet Movie Database`, `Rotten Tomatoes`, `Metacritic`.
    public let source: String
    /// The rating as that source writes it (OMDb's `Value`): `7.8/10`, `80%`, `70/100`.
    public let text: String
    /// The rating out of 100, whatever the source's scale: `7.8/10` → 78, `80%` → 80,
    /// `70/100` → 70. `nil` when ``text`` is neither a score out of a scale nor a percentage
    /// from 0 to 100.
    public let percent: Double?
}
