import Foundation
import Synchronization

/// One poster written as its bytes arrive, on the file-work thread that hands them over (through
/// ``HTTPBody/receive(into:)``; never a transport's own): the type is told from the first bytes, the file opened
/// then, each chunk appended at once, and the cap enforced as the bytes come. So the writer holds
/// no more than the first few bytes; the rest is on disk as soon as it is given.
///
/// The writes run outside the writer's lock, so ``discard()`` (what a cancellation calls, from
/// the thread that cancels: Ctrl-C's) does not wait for a disk (but for the one write of a body
/// shorter than an image signature, made by ``finish()`` under the lock): it removes the temporary file's
/// name at once, and the write under way closes the file when its `write` returns. On a disk
/// taking seconds a write, Ctrl-C took seconds a poster, one after another, before.
final class PosterWriter: Sendable {
    private struct State {
        /// The first bytes, until there are enough to tell the format.
        var head = Data()
        var file: (PosterFile, destination: URL)?
        var written = 0
        var discarded = false
        /// A chunk is being written, outside the lock: the file is that write's to close.
        var writing = false
    }

    /// What ``take(_:)`` does outside the lock.
    private enum Step {
        case nothing
        case open(ImageFormat, head: Data)
        case append(PosterFile, destination: URL)
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

    /// Appends `chunk`, opening the file once the format is known. One caller at a time (the
    /// body's drain); ``discard()`` may come from any thread meanwhile.
    /// - Throws: ``OMDbError/posterTooLarge(bytes:limit:)``, the refusal, ``OMDbError/posterNotWritten(path:reason:)``.
    func take(_ chunk: Data) throws(OMDbError) {
        let step = try state.withLock { (state) throws(OMDbError) -> Step in
            guard !state.discarded else { return .nothing }
            state.written += chunk.count
            guard state.written <= maxBytes else { throw .posterTooLarge(bytes: state.written, limit: maxBytes) }
            if let file = state.file {
                state.writing = true
                return .append(file.0, destination: file.destination)
            }
            state.head.append(chunk)
            guard state.head.count >= ImageFormat.signatureLength else { return .nothing }
            guard let format = ImageFormat(sniffing: state.head) else { throw refusal }
            defer { state.head = Data() }
            state.writing = true
            return .open(format, head: state.head)
        }
        do {
            switch step {
            case .nothing:
                return
            case .append(let file, let destination):
                try append(file, chunk, destination)
            case .open(let format, let head):
                let (file, destination) = try open(format)
                let kept = state.withLock { state in
                    guard !state.discarded else { return false }
                    state.file = (file, destination)
                    return true
                }
                guard kept else { file.discard(); break }
                try append(file, head, destination)
            }
        } catch {
            doneWriting()
            throw error
        }
        doneWriting()
    }

    /// The write outside the lock is over: when the writer was discarded meanwhile, its file
    /// (whose name is already gone) is closed now.
    private func doneWriting() {
        let abandoned = state.withLock { state -> PosterFile? in
            state.writing = false
            guard state.discarded, let file = state.file else { return nil }
            state.file = nil
            return file.0
        }
        abandoned?.closeDescriptor()
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

    /// Removes the temporary file, if one was opened, and closes it, or leaves closing it to
    /// the write under way; later chunks are ignored. Does not wait for a write under way.
    func discard() {
        let (file, writing) = state.withLock { state in
            state.discarded = true
            let file = state.file?.0
            if !state.writing { state.file = nil }
            return (file, state.writing)
        }
        guard let file else { return }
        if writing { file.removeName() } else { file.discard() }
    }

    /// For a body shorter than a signature, at its end: opens the file and writes the head.
    private func start(_ state: inout State) throws(OMDbError) {
        guard let format = ImageFormat(sniffing: state.head) else { throw refusal }
        let (file, destination) = try open(format)
        state.file = (file, destination)
        try append(file, state.head, destination)
        state.head = Data()
    }
}
