import Foundation
import LineEditing

/// A line with a spinner that says what is awaited, from Enter until the answer comes, drawn where the
/// answer will start and wiped before it; only on a live page.
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
        // Never wider than the window: a wrapped line would leave its second row behind.
        let width = max(10, (Terminal.size()?.columns ?? console.width) - 1)
        console.writeOut("\r\u{1B}[2K" + LivePage.clip(console.style.dim(plain), plain: plain, width: width, ellipsis: true))
    }
}
