import Foundation
@testable import OMDbKit

/// The repair of a body before JSON decoding: its output is valid UTF-8 with no lone surrogate
/// escape left, and repairing again changes nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireRepair(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let repaired = WireRepair.json(Data(bytes: data, count: size))
    precondition(String(validating: [UInt8](repaired), as: UTF8.self) != nil, "repaired body is not UTF-8")
    precondition(WireRepair.json(repaired) == repaired, "repair is not idempotent")
    return 0
}
