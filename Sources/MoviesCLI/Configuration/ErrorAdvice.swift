import Files
import Foundation
import OMDbKit

extension OMDbError {
    /// The library's description, with what a person can do about it with this tool, on one line.
    var forPerson: String { advice.map { description + " " + $0 } ?? description }

    /// What to do next, in the tool's terms; `nil` when the description says enough.
    var advice: String? {
        switch self {
        // OMDb may answer otherwise now: how to ask again, then the error's own advice.
        case .fromCache(let error, _): ["Run movies cache clear to ask OMDb again.", error.advice].compactMap { $0 }.joined(separator: " ")
        case .invalidAPIKey: "Check OMDB_API_KEY (or --api-key)."
        case .missingAPIKey: "Set OMDB_API_KEY (or --api-key)."
        case .quotaExhausted: "Cached searches and --offline still work; wait for the limit to reset, or use another key."
        case .dailyLimitReached: "Cached searches and --offline still work, and a key that allows more takes --daily-limit N."
        case .noReason: "Try again later."
        case .cdnRefused: "Try again later, or from another network."
        case .timedOut: "Try again, or raise --timeout."
        // Out of descriptors, not of network: the reason says which limit to raise.
        case .unreachable(_, let reason) where [EMFILE, ENFILE].contains(where: { ProcessLimit.shortage($0) == reason }): nil
        case .unreachable: "Check the network or --base-url."
        case .answerTooLarge: "Check --base-url."
        // A page of a CDN or a proxy passes; another server at --base-url does not.
        case .invalidResponse: "Try again later, or check --base-url."
        case .seasonNotFound: "Check the season number (show N says how many)."
        default: nil
        }
    }
}
