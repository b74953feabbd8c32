#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Dispatch
import Foundation
import Synchronization

/// The terminal the prompt runs on: its modes, its size, and job-control signals. Every way out
/// calls ``restore()``; Ctrl-Z restores before stopping and sets the mode again on `fg`.
public final class Terminal: Sendable {
    public enum Mode: Sendable {
        /// As found.
        case original
        /// Raw, for the line editor: every key comes to us, Ctrl-C and Ctrl-Z included.
        case editing
        /// While a command runs: no echo (typing would tear a live page), Ctrl-C still a signal.
        case quiet
    }

    /// What listeners hear about.
    public enum Event: Sendable {
        /// SIGWINCH: lay out again.
        case resized
        /// Back from Ctrl-Z: the screen may hold anything, draw again.
        case continued
    }

    private struct State {
        var original: termios?
        var mode = Mode.original
        var cursorHidden = false
        var listeners: [Int: @Sendable (Event) -> Void] = [:]
        var nextListener = 0
        /// ``suspend()`` is stopping the process and sets the mode back itself when continued.
        var suspending = false
    }

    private let state = Mutex(State())
    /// One source per signal watched.
    private let sources = Mutex<[Int32: any DispatchSourceSignal]>([:])
    /// Writes escape codes or the edited line to stdout with the writer of the tool's results, so an escape
    /// code never lands inside a line being written; a failure is reported by the next result's write.
    public let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// Columns and rows of the terminal on `descriptor` (stdout), read now; nil when it is not a terminal.
    public static func size(of descriptor: Int32 = STDOUT_FILENO) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Remembers stdin's settings and takes over SIGTSTP, SIGCONT and SIGWINCH; false when stdin is
    /// not a terminal. Later calls do nothing.
    public func start() -> Bool {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        let first = state.withLock { state -> Bool in
            guard state.original == nil else { return false }
            state.original = settings
            return true
        }
        if first { watchSignals([SIGTSTP, SIGCONT, SIGWINCH]) }
        return true
    }

    /// Takes SIGWINCH only (a live page on a terminal whose stdin is not one).
    public func watchResizes() { watchSignals([SIGWINCH]) }

    private func watchSignals(_ numbers: [Int32]) {
        sources.withLock { sources in
            for number in numbers where sources[number] == nil {
                // @Sendable, or the first signal traps (runtime isolation check).
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                switch number {
                case SIGTSTP:
                    signal(SIGTSTP, SIG_IGN)
                    source.setEventHandler { @Sendable [self] in self.suspend() }
                case SIGCONT:
                    source.setEventHandler { @Sendable [self] in self.resume() }
                default:
                    source.setEventHandler { @Sendable [self] in self.tell(.resized) }
                }
                source.resume()
                sources[number] = source
            }
        }
    }

    /// Puts stdin in `mode`. Bracketed paste is on only while editing.
    public func set(_ mode: Mode) {
        let (original, previous) = state.withLock { state in
            defer { state.mode = mode }
            return (state.original, state.mode)
        }
        guard var settings = original else { return }
        switch mode {
        case .original: break
        case .editing:
            settings.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
            settings.c_cflag |= tcflag_t(CS8)
            settings.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        case .quiet:
            settings.c_lflag &= ~tcflag_t(ECHO | ICANON)
        }
        if mode != .original {
            withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
        tcsetattr(STDIN_FILENO, TCSADRAIN, &settings)
        if mode == .editing, previous != .editing { write("\u{1B}[?2004h") }
        if mode != .editing, previous == .editing { write("\u{1B}[?2004l") }
    }

    /// Hides or shows the cursor (a live page hides it while it draws).
    public func showCursor(_ shown: Bool) {
        // Hidden is recorded before the code goes out and shown after: a restore() meanwhile (a
        // SIGTERM's, while this write waits for stdout) then shows the cursor itself.
        if !shown { state.withLock { $0.cursorHidden = true } }
        write(shown ? "\u{1B}[?25h" : "\u{1B}[?25l")
        if shown { state.withLock { $0.cursorHidden = false } }
    }

    /// The terminal as it was found: settings, cursor, paste mode. Safe to call at any time.
    public func restore() {
        let (original, mode, hidden) = state.withLock { state in
            defer {
                state.mode = .original
                state.cursorHidden = false
            }
            return (state.original, state.mode, state.cursorHidden)
        }
        guard var settings = original else { return }
        if mode == .editing { write("\u{1B}[?2004l") }
        if hidden { write("\u{1B}[?25h") }
        tcsetattr(STDIN_FILENO, TCSADRAIN, &settings)
    }

    /// Ctrl-Z: restores the terminal, stops the process, and sets the mode and cursor back once it
    /// is continued (`fg`). A stop sent to the calling thread takes effect before `pthread_kill`
    /// returns, and it returns once the process is continued: nothing waits on SIGCONT's delivery,
    /// which a signal source may lose.
    public func suspend() {
        let (mode, hidden) = state.withLock { state in
            state.suspending = true
            return (state.mode, state.cursorHidden)
        }
        restore()
        pthread_kill(pthread_self(), SIGSTOP)
        stopUntilForeground()
        set(mode)
        if hidden { showCursor(false) }
        state.withLock { $0.suspending = false }
    }

    /// SIGCONT: draw again; after someone else's stop (`kill -STOP`), also set the mode again.
    private func resume() {
        let (suspending, mode, hidden) = state.withLock { ($0.suspending, $0.mode, $0.cursorHidden) }
        if !suspending {
            stopUntilForeground()
            set(mode)
            if hidden { showCursor(false) }
        }
        tell(.continued)
    }

    /// Stopped while another process group has the terminal. Continued in the background (`bg`,
    /// `kill -CONT`), Dispatch's threads (SIGTTOU blocked) would set modes and draw under the shell's
    /// line, and a shell sends no SIGCONT when it brings a running job to the foreground.
    private func stopUntilForeground() {
        while ![-1, getpgrp()].contains(tcgetpgrp(STDIN_FILENO)) { pthread_kill(pthread_self(), SIGSTOP) }
    }

    /// Calls `handler` (on any thread) on each event until ``ignore(_:)``.
    public func listen(_ handler: @escaping @Sendable (Event) -> Void) -> Int {
        state.withLock { state in
            state.nextListener += 1
            state.listeners[state.nextListener] = handler
            return state.nextListener
        }
    }

    public func ignore(_ token: Int) {
        _ = state.withLock { $0.listeners.removeValue(forKey: token) }
    }

    private func tell(_ event: Event) {
        for handler in state.withLock({ Array($0.listeners.values) }) { handler(event) }
    }
}
