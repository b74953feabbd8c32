#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Files
import Foundation
import Synchronization

/// Lines typed at a terminal, edited with ``LineEditor``: the I/O layer around it. Reads stdin on a
/// thread of its own, one line per ``nextLine(answering:)``, so the prompt never lands inside a command's output.
/// Raw mode only while a line is typed; ``Terminal/Mode/quiet`` between.
public final class TerminalLineReader: Sendable {
    public let prompt: String
    private let terminal: Terminal
    private let history: History?
    private let requests = DispatchSemaphore(value: 0)
    /// A line asked for: a command, or the answer to a question (then `question` is its prompt).
    private let waiting = Mutex<(continuation: CheckedContinuation<String?, Never>, question: String?)?>(nil)
    /// Written by terminal events (resize, back from Ctrl-Z) to wake the reading thread.
    private let wake: (read: Int32, write: Int32)
    /// Called on the reading thread at the first key of each line: the person starts typing.
    private let typing: (@Sendable () -> Void)?
    /// Set by Ctrl-C (any thread): the keys typed ahead are dropped before the next line.
    private let dropTypedAhead = Atomic(false)

    public init(prompt: String, terminal: Terminal, history: History?, completer: @escaping Completer,
         typing: (@Sendable () -> Void)? = nil) {
        self.prompt = prompt
        self.typing = typing
        self.terminal = terminal
        self.history = history
        let remembered = history?.load() ?? []
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        wake = (fds[0], fds[1])
        let wakeWrite = wake.write
        _ = terminal.listen { event in _ = AtomicFile.writeAll(Data((event == .resized ? "r" : "c").utf8), to: wakeWrite) }
        let thread = Thread { [self] in
            // The reading thread's alone (``Reading`` is not `Sendable`).
            let reading = Reading(owner: self, editor: LineEditor(history: remembered, completer: completer))
            while true {
                requests.wait()
                let question = waiting.withLock { $0?.question }
                let line = question.map(reading.readAnswer) ?? reading.readLine()
                waiting.withLock { $0.take() }?.continuation.resume(returning: line)
            }
        }
        thread.name = "movies.editor"
        thread.start()
    }

    /// The next line, or nil after Ctrl-D on an empty line (or the end of input). With a `question`, its
    /// answer, typed after it as the prompt, without history or completion; `nil` for Ctrl-C too.
    public func nextLine(answering question: String? = nil) async -> String? {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = (continuation, question) }
            requests.signal()
        }
    }

    /// Ctrl-C: lines typed ahead are dropped, not run once the command stops.
    public func interrupted() { dropTypedAhead.store(true, ordering: .sequentiallyConsistent) }

    // MARK: The reading thread

    /// What only the reading thread touches: the editor, the keys read ahead, the layout drawn.
    private final class Reading {
        private let owner: TerminalLineReader
        private var editor: LineEditor
        /// The prompt of the line being read: ``prompt``, or a question's.
        private var shownPrompt: String
        private var decoder = KeyDecoder()
        /// Keys read but not yet handled: typing ahead of Enter belongs to the next line.
        private var queued: [Key] = []
        private var layout: LineLayout?
        private var endOfInput = false

        init(owner: TerminalLineReader, editor: LineEditor) {
            self.owner = owner
            self.editor = editor
            shownPrompt = owner.prompt
        }

        private var terminal: Terminal { owner.terminal }

        func readAnswer(_ question: String) -> String? {
            let commands = editor
            editor = LineEditor()
            defer {
                editor = commands
                shownPrompt = owner.prompt
            }
            shownPrompt = question
            return readLine(asking: true)
        }

        func readLine(asking: Bool = false) -> String? {
            guard !endOfInput else { return nil }
            terminal.set(.editing)
            takeTypedAhead()
            editor.reset()
            layout = nil
            draw()
            var typed = false
            while true {
                if queued.isEmpty { queued = waitForKeys() }
                guard let key = queued.first else {
                    if endOfInput { return finish(nil) }
                    continue
                }
                queued.removeFirst()
                if !typed {
                    typed = true
                    owner.typing?()
                }
                switch editor.handle(key) {
                case .redraw: draw()
                case .nothing: break
                case .submit(let line):
                    // An answer is no command: it stays out of history.
                    if !asking, History.keeps(line, after: editor.history.last, secret: owner.history?.secret) {
                        editor.remember(line)
                        owner.history?.add(line)
                    }
                    return finish(line)
                case .endOfInput:
                    // Ctrl-D at a question answers nothing; at the prompt it ends the input.
                    if !asking { endOfInput = true }
                    return finish(nil)
                case .interrupted where asking:
                    terminal.write("^C")
                    return finish(nil)
                case .interrupted:
                    terminal.write("^C" + (layout?.leave() ?? "\r\n"))
                    editor.reset()
                    startOver()
                case .clearScreen:
                    terminal.write("\u{1B}[H\u{1B}[2J")
                    startOver()
                case .suspend:
                    terminal.write(layout?.leave() ?? "\r\n")
                    terminal.suspend()
                    startOver()
                case .list(let choices):
                    terminal.write((layout?.leave() ?? "\r\n") + choices.joined(separator: "  ") + "\r\n")
                    startOver()
                }
            }
        }

        /// Keys typed ahead start the line, unless a Ctrl-C came after them (as a signal, or typed in raw mode).
        private func takeTypedAhead() {
            // A Ctrl-C signal drops only what was read before it: the terminal emptied its queue when
            // it sent the signal, so what is there now was typed since and belongs to this line.
            if owner.dropTypedAhead.exchange(false, ordering: .sequentiallyConsistent) {
                queued = []
                decoder = KeyDecoder()
                return
            }
            guard !queued.isEmpty else { return }
            var ready = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
            var bytes = [UInt8](repeating: 0, count: 4096)
            while poll(&ready, 1, 0) > 0, ready[0].revents & Int16(POLLIN) != 0 {
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                guard count > 0 else { break }
                queued += decoder.feed(bytes[..<count])
            }
            // The Ctrl-C itself stays: the editor shows it and starts a fresh line.
            if let last = queued.lastIndex(of: .interrupt) { queued.removeSubrange(..<last) }
        }

        private func finish(_ line: String?) -> String? {
            // A Ctrl-C delivered after this line began is not about the keys typed from now on.
            owner.dropTypedAhead.store(false, ordering: .sequentiallyConsistent)
            terminal.write(layout?.leave() ?? "\r\n")
            layout = nil
            terminal.set(.quiet)
            return line
        }

        private func startOver() {
            layout = nil
            draw()
        }

        private func draw() {
            let (linePrompt, line) = editor.display(prompt: shownPrompt)
            let width = Terminal.size()?.columns ?? 80
            let (bytes, newLayout) = LineLayout.redraw(prompt: linePrompt, line: line, width: width, previous: layout)
            terminal.write(bytes)
            layout = newLayout
        }

        /// Blocks until keys come (or an event needs a redraw, which is done here).
        private func waitForKeys() -> [Key] {
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: owner.wake.read, events: Int16(POLLIN), revents: 0)]
            // A lone Escape is a key only when nothing follows it quickly.
            let ready = poll(&fds, nfds_t(fds.count), decoder.isWaiting ? 40 : -1)
            if ready == 0 { return decoder.flush() }
            guard ready > 0 else { return [] }
            if fds[1].revents != 0 {
                var events = [UInt8](repeating: 0, count: 64)
                let count = read(owner.wake.read, &events, events.count)
                // Back from Ctrl-Z, the screen is the shell's: draw on a fresh line.
                if count > 0, events[..<count].contains(UInt8(ascii: "c")) { layout = nil }
                draw()
            }
            guard fds[0].revents != 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) {
                endOfInput = true
                return []
            }
            return count > 0 ? decoder.feed(bytes[..<count]) : []
        }
    }
}
