import Foundation
import MoviesCLI

let runtime = Runtime()
let status = await Movies.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                              runtime: runtime)
runtime.exit(status)
