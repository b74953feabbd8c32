import Foundation
import MoviesCLI

let status = await Movies.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
