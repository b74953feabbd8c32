#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MoviesCLI

#if canImport(Glibc)
// glibc gives each thread that allocates an arena of its own (up to 8 per core), and memory freed
// stays in its arena: with libcurl's thread, the session's, the pool's and the poster commits',
// a run over posters kept ~7 MB of freed pages spread over a dozen arenas. This tool waits on the
// network; it does not allocate much at once, and two arenas cost it no measurable time.
// `mallopt` and `M_ARENA_MAX` (-8 in <malloc.h>) are not in Swift's Glibc module: looked up here.
if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
    let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    _ = mallopt(-8, 2)
}
#endif

let runtime = Runtime()
let status = await Movies.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                              runtime: runtime)
runtime.exit(status)
