import Foundation

/// How every OMDb body is read, whoever reads it: the payload, else OMDb's error envelope, else the
/// decoding error. One rule, so that what is kept, what is retried and what is shown agree.
enum OMDbAnswer {
    /// `body` as `T`, repaired first (``WireRepair``).
    /// - Throws: ``OMDbEnvelope`` for OMDb's `{"Response":"False",…}`, else the `DecodingError`.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        let decoder = JSONDecoder()
        let body = WireRepair.json(body)
        do {
            return try decoder.decode(Payload<T>.self, from: body).value
        } catch {
            if let envelope = try? decoder.decode(Envelope.self, from: body), envelope.isFailure {
                throw OMDbEnvelope(message: envelope.Error?.value ?? "")
            }
            throw error
        }
    }

    static func envelope(in body: Data) -> OMDbEnvelope? {
        do {
            _ = try decode(Envelope.self, from: body)
            return nil
        } catch {
            return error as? OMDbEnvelope
        }
    }
}

/// OMDb's error envelope, `{"Response":"False","Error":"Movie not found!"}`: an answer, whatever the status.
struct OMDbEnvelope: Error, Equatable {
    /// The server's text as it came; empty when it sent none.
    let message: String
}

/// A payload that is not an envelope, which a lenient payload would otherwise read as empty.
private struct Payload<T: Decodable>: Decodable {
    let value: T

    init(from decoder: any Decoder) throws {
        if (try? Envelope(from: decoder))?.isFailure == true {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "OMDb's error envelope"))
        }
        value = try T(from: decoder)
    }
}

/// OMDb's `Response` flag and `Error` text: what any answer says of itself.
struct Envelope: Decodable {
    let Response: WireFlag?
    let Error: WireText?

    var isFailure: Bool { Response?.value == false }
}
