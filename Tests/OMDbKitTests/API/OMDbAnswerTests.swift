import Foundation
import Testing
@testable import OMDbKit

/// The decoding, the disk cache and the retries read OMDb's error envelope by one rule.
@Suite struct OMDbAnswerTests {
    static let envelopes = [
        #"{"Response":"False","Error":"Movie not found!"}"#,
        #"{"Response":"false","Error":"Movie not found!"}"#,
        #"{"Response":false,"Error":"Movie not found!"}"#,
        #"{"Error":"Movie not found!","Response":"FALSE","Search":[]}"#,
    ]

    @Test(arguments: envelopes)
    func everySpellingOfTheEnvelopeIsOneForTheDecodingTheCacheAndTheRetries(body: String) throws {
        let data = Data(body.utf8)
        #expect(OMDbAnswer.envelope(in: data) == OMDbEnvelope(message: "Movie not found!"))
        #expect(throws: OMDbError.notFound(query: "q")) {
            try OMDbDecoding.decode(SearchPayload.self, json(body), query: "q", url: "u")
        }
        #expect(DiskCache.lifetime(of: json(body), override: nil) == DiskCache.notFoundLifetime)
    }

    @Test(arguments: [#"{"Response":"True","Title":"t"}"#, #"{"Response":true}"#, #"{"Title":"t"}"#, "not json", "[]"])
    func anythingElseIsNoEnvelope(body: String) {
        #expect(OMDbAnswer.envelope(in: Data(body.utf8)) == nil)
    }

    @Test func aPayloadThatFailsToDecodeRethrowsItsOwnError() {
        #expect(throws: DecodingError.self) { try OMDbAnswer.decode([Int].self, from: Data(#"{"Response":"True"}"#.utf8)) }
    }
}
