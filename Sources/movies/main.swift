import Foundation
import MoviesCLI

let status = await Movies.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
// Waits for a poster write in progress, so none is left half-written.
Movies.exit(status)
