#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import Synchronization

/// Lines typed at a terminal, edited with ``LineEditor``: the thin I/O layer around it.
///
/// Reads stdin on a thread of its own (never the cooperative pool), one line per
/// ``nextLine()``: the prompt is drawn only when asked for, so it never lands in the middle of
/// a command's output. Raw mode only while a line is typed; ``Terminal/Mode/quiet`` between.
final class TerminalLineReader: @unchecked Sendable {
    let prompt: String
    private let terminal: Terminal
    private let history: History?
    private let requests = DispatchSemaphore(value: 0)
    private let waiting = Mutex<CheckedContinuation<String?, Never>?>(nil)
    /// Written by terminal events (resize, back from Ctrl-Z) to wake the reading thread.
    private let wake: (read: Int32, write: Int32)

    // Touched only by the reading thread.
    private var editor: LineEditor
    private var decoder = KeyDecoder()
    /// Keys read but not yet handled: typing ahead of Enter belongs to the next line.
    private var queued: [Key] = []
    private var layout: LineLayout?
    private var endOfInput = false
    /// Called on the reading thread at the first key of each line: the person starts typing.
    private let typing: (@Sendable () -> Void)?

    init(prompt: String, terminal: Terminal = .shared, history: History?, completer: Completer,
         typing: (@Sendable () -> Void)? = nil) {
        self.prompt = prompt
        self.typing = typing
        self.terminal = terminal
        self.history = history
        editor = LineEditor(history: history?.load() ?? [], completer: completer)
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        wake = (fds[0], fds[1])
        let wakeWrite = wake.write
        _ = terminal.listen { event in writeAll(wakeWrite, event == .resized ? "r" : "c") }
        let thread = Thread { [self] in
            while true {
                requests.wait()
                let line = readLine()
                waiting.withLock { $0.take() }?.resume(returning: line)
            }
        }
        thread.name = "movies.editor"
        thread.start()
    }

    /// The next line, or nil after Ctrl-D on an empty line (or the end of input).
    func nextLine() async -> String? {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            requests.signal()
        }
    }

    // MARK: The reading thread

    private func readLine() -> String? {
        guard !endOfInput else { return nil }
        terminal.set(.editing)
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
                typing?()
            }
            switch editor.handle(key) {
            case .redraw: draw()
            case .nothing: break
            case .submit(let line):
                if History.keeps(line, after: editor.history.last, secret: history?.secret) {
                    editor.remember(line)
                    history?.add(line)
                }
                return finish(line)
            case .endOfInput:
                endOfInput = true
                return finish(nil)
            case .interrupted:
                Terminal.write("^C" + (layout?.leave() ?? "\r\n"))
                editor.reset()
                startOver()
            case .clearScreen:
                Terminal.write("\u{1B}[H\u{1B}[2J")
                startOver()
            case .suspend:
                Terminal.write(layout?.leave() ?? "\r\n")
                terminal.suspend()
                startOver()
            case .list(let choices):
                Terminal.write((layout?.leave() ?? "\r\n") + choices.joined(separator: "  ") + "\r\n")
                startOver()
            }
        }
    }

    private func finish(_ line: String?) -> String? {
        Terminal.write(layout?.leave() ?? "\r\n")
        layout = nil
        terminal.set(.quiet)
        return line
    }

    private func startOver() {
        layout = nil
        draw()
    }

    private func draw() {
        let (shownPrompt, line) = editor.display(prompt: prompt)
        let width = Terminal.size()?.columns ?? 80
        let (bytes, newLayout) = LineLayout.redraw(prompt: shownPrompt, line: line, width: width, previous: layout)
        Terminal.write(bytes)
        layout = newLayout
    }

    /// Blocks until keys come (or an event needs a redraw, which is done here).
    private func waitForKeys() -> [Key] {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        // A lone Escape is a key only when nothing follows it quickly.
        let ready = poll(&fds, nfds_t(fds.count), decoder.isWaiting ? 40 : -1)
        if ready == 0 { return decoder.flush() }
        guard ready > 0 else { return [] }
        if fds[1].revents != 0 {
            var events = [UInt8](repeating: 0, count: 64)
            let count = read(wake.read, &events, events.count)
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
