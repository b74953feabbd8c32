import Foundation
@testable import OMDbKit

/// The quota ledger's file, read back: a record line, and the whole file through `read(today:)`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuotaLedger(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let today = QuotaLedger.utcDay(Date())
    if let record = QuotaLedger.Record(line: String(decoding: bytes, as: UTF8.self), today: today) {
        precondition(QuotaLedger.Record(line: String(record.line.dropLast()), today: today) == record, "a record does not survive its line")
    }
    let ledger = QuotaLedger(folder: FuzzFolder.url, apiKey: "fuzz")
    try? bytes.write(to: ledger.file)
    _ = ledger.read(today: today)
    return 0
}
