import Foundation
import LineEditing

/// One line that says what is awaited, with a spinner, from Enter until the answer comes, so a
/// search, `more`, `show` or `episodes` never leaves the screen still for as long as OMDb takes.
/// Drawn on stdout's terminal on the line the answer will start on, and wiped before anything
/// else is written there; only a live page (a terminal not `TERM=dumb`, coloured or not) has one.
@MainActor
final class WaitingLine {
    let console: Console
    let terminal: Terminal
    private var text: String?
    private var frame = 0
    private var ticker: Task<Void, Never>?

    init(console: Console, terminal: Terminal) {
        self.console = console
        self.terminal = terminal
    }

    /// Shows `text` at once, its spinner turning until ``stop()``.
    func start(_ text: String) {
        stop()
        self.text = text
        frame = 0
        terminal.showCursor(false)
        draw()
        ticker = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))  // timer: the spinner's tick
                guard let self, !Task.isCancelled else { return }
                self.frame += 1
                self.draw()
            }
        }
    }

    /// Wipes the line, leaving the cursor at its start for what comes next.
    func stop() {
        guard text != nil else { return }
        ticker?.cancel()
        ticker = nil
        text = nil
        console.writeOut("\r\u{1B}[2K")
        terminal.showCursor(true)
    }

    private func draw() {
        guard let text else { return }
        let plain = "\(LivePage.spinner[frame % LivePage.spinner.count]) \(text)"
        // Never wider than the window: a line that wrapped would leave its second row behind.
        let width = max(10, (Terminal.size()?.columns ?? console.width) - 1)
        console.writeOut("\r\u{1B}[2K" + LivePage.clip(console.style.dim(plain), plain: plain, width: width, ellipsis: true))
    }
}
