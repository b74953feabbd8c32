import Foundation
import Synchronization

/// One poster written as its bytes arrive, on the file-work thread that hands them over (through
/// ``HTTPBody/receive(into:)``; never a transport's own): the type is told from the first bytes, the file opened
/// then, each chunk appended at once, and the cap enforced as the bytes come. So the writer holds
/// no more than the first few bytes; the rest is on disk as soon as it is given.
final class PosterWriter: Sendable {
    private struct State {
        /// The first bytes, until there are enough to tell the format.
        var head = Data()
        var file: (PosterFile, destination: URL)?
        var written = 0
        var discarded = false
    }

    private let state = Mutex(State())
    private let maxBytes: Int
    private let refusal: OMDbError
    private let open: @Sendable (ImageFormat) throws(OMDbError) -> (PosterFile, URL)
    private let append: @Sendable (PosterFile, Data, URL) throws(OMDbError) -> Void

    /// - Parameters:
    ///   - refusal: what to throw when the bytes are not an image.
    ///   - append: appends a chunk to the file (`destination` is for messages).
    ///   - open: opens the temporary file for a poster of this format.
    init(maxBytes: Int, refusal: OMDbError,
         append: @escaping @Sendable (PosterFile, Data, URL) throws(OMDbError) -> Void = { try $0.append($1, destination: $2) },
         open: @escaping @Sendable (ImageFormat) throws(OMDbError) -> (PosterFile, URL)) {
        self.maxBytes = maxBytes
        self.refusal = refusal
        self.append = append
        self.open = open
    }

    /// Appends `chunk`, opening the file once the format is known.
    /// - Throws: ``OMDbError/posterTooLarge(bytes:limit:)``, the refusal, ``OMDbError/posterNotWritten(path:reason:)``.
    func take(_ chunk: Data) throws(OMDbError) {
        try state.withLock { (state) throws(OMDbError) in
            guard !state.discarded else { return }
            state.written += chunk.count
            guard state.written <= maxBytes else { throw .posterTooLarge(bytes: state.written, limit: maxBytes) }
            if let file = state.file { return try append(file.0, chunk, file.destination) }
            state.head.append(chunk)
            if state.head.count >= ImageFormat.signatureLength { try start(&state) }
        }
    }

    /// The bytes are all in: the file to commit (a body shorter than a signature is told now).
    /// - Throws: as ``take(_:)``.
    /// The file is the caller's from then on (to commit, which cleans up after itself): a later
    /// ``discard()`` leaves it alone, so it never closes a descriptor a commit is using.
    func finish() throws(OMDbError) -> (PosterFile, URL) {
        try state.withLock { (state) throws(OMDbError) in
            guard !state.discarded else { throw .posterNotWritten(path: "the poster", reason: "the write was given up") }
            if state.file == nil { try start(&state) }
            guard let file = state.file else { throw refusal }
            state.file = nil
            state.discarded = true
            return file
        }
    }

    /// Closes and removes the temporary file, if one was opened; later chunks are ignored.
    func discard() {
        state.withLock { state in
            state.discarded = true
            state.file?.0.discard()
            state.file = nil
        }
    }

    private func start(_ state: inout State) throws(OMDbError) {
        guard let format = ImageFormat(sniffing: state.head) else { throw refusal }
        let (file, destination) = try open(format)
        state.file = (file, destination)
        try append(file, state.head, destination)
        state.head = Data()
    }
}
