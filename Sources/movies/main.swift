import Foundation
import MoviesCLI
import OMDbKit

let status = await Movies.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
// A poster write in progress finishes before the process ends, so none is left half-written.
PosterStore.finishWrites()
exit(status)
