import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 whose kernel completes the TCP handshake (a listening socket's backlog)
/// and that never reads nor writes a byte: a host that accepts TCP and never completes TLS.
///
/// `SilentListener(listening: false)` is the closed port for a "connection refused" test: a
/// server shut down gives its port back, and a server of a test running beside it can be given
/// that port (it happened: the refused request met that server, and both tests failed).
public final class SilentListener: Sendable {
    public let port: Int
    private let fd: Int32

    /// - Parameter listening: `false` keeps the port bound but refuses every connection: a closed
    ///   port no other server of a parallel test can be given.
    public init(listening: Bool = true) throws {
        var (fd, address) = loopbackTCPSocket()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && (!listening || listen(fd, 64) == 0) && getsockname(fd, sa, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    public var baseURL: URL { URL(string: "https://127.0.0.1:\(port)/")! }

    deinit { close(fd) }
}

/// A new TCP socket, and 127.0.0.1:`port` as the address to bind or connect it to (port 0: any).
public func loopbackTCPSocket(port: Int = 0) -> (fd: Int32, address: sockaddr_in) {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port)).bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    return (fd, address)
}
