import Foundation
import OMDbKit
import LineEditing

/// A page that fills in place on a terminal that takes cursor codes: the rows at once, each with a
/// spinner, then its plot and poster state as they come, and a status line under the page. Before it,
/// from Enter until the answer comes, a waiting line with a spinner says what is awaited.
///
/// It is redrawn from its top, found by moving up over the lines drawn last time: that works only while
/// the whole page is on screen, so a taller page is printed instead, each row once finished, in order.
@MainActor
final class LivePresenter: Presenter {
    let plain: TextPresenter
    let terminal: Terminal
    /// The key's daily count for the status line (the ledger's estimate, which reads no file); `nil` offline.
    private let budget: RequestBudget?
    private var today: String?

    private var page: LivePage?
    /// The columns each line drawn last time takes (the cursor sits at the start of the line below them): after
    /// the window narrows, most terminals rewrap a long line onto more rows, which the redraw must go up over too.
    private var drawnWidths: [Int] = []
    /// Rows already printed for good when the page does not fit on the screen.
    private var printedRows: Int?
    private var frame = 0
    private var ticker: Task<Void, Never>?
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawPending = false
    private var listener: Int?
    /// What the waiting line says while it is shown: drawn where the answer will start, wiped before it.
    private var waitingText: String?

    /// At most one redraw per this long (about 30 a second), so a fast page does not flicker.
    static let frameInterval = Duration.milliseconds(33)

    init(plain: TextPresenter, terminal: Terminal, budget: RequestBudget?) {
        self.plain = plain
        self.terminal = terminal
        self.budget = budget
    }

    var console: Console { plain.console }

    func display(_ file: URL) -> String { plain.display(file) }

    func waiting<T>(_ text: String, for work: () async throws -> T) async rethrows -> T {
        stopWaiting()
        waitingText = text
        frame = 0
        terminal.showCursor(false)
        drawWaitingLine()
        startTicker()
        defer { stopWaiting() }
        return try await work()
    }

    /// Wipes the waiting line, leaving the cursor at its start for what comes next.
    private func stopWaiting() {
        guard waitingText != nil else { return }
        ticker?.cancel()
        ticker = nil
        waitingText = nil
        console.writeOut("\r\u{1B}[2K")
        terminal.showCursor(true)
    }

    func pageArrived(_ page: SearchPage, first: Int, savingPosters: Bool, wholePlots: Bool) {
        stopWaiting()
        // Nothing to fill in: the plain lines say why the page is empty.
        guard !page.items.isEmpty else { plain.pageArrived(page, first: first); return }
        self.page = LivePage(heading: TextPresenter.heading(for: page), first: first, items: page.items, postersOn: savingPosters,
                             wholePlots: wholePlots, display: plain.display)
        drawnWidths = []
        printedRows = nil
        today = budget?.pageStatus
        terminal.showCursor(false)
        listener = terminal.listen { event in
            Task { @MainActor [weak self] in
                // Back from Ctrl-Z the shell has written below the page: draw it afresh there.
                if event == .continued { self?.drawnWidths = [] }
                self?.draw()
            }
        }
        startTicker()
        draw()
    }

    /// Turns the spinner of the page, or of the waiting line, until cancelled.
    private func startTicker() {
        ticker?.cancel()
        ticker = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))  // timer: the spinner's tick
                guard let self, !Task.isCancelled else { return }
                self.frame += 1
                guard self.page != nil else { self.drawWaitingLine(); continue }
                self.today = self.budget?.pageStatus
                self.draw()
            }
        }
    }

    func rowUpdated(_ update: MovieUpdate, number: Int) {
        page?.update(update, number: number)
        requestDraw()
    }

    func pageFinished(_ page: SearchPage, pagesShown: Set<Int>) async {
        defer { plain.pageFinished(page, pagesShown: pagesShown) }
        guard self.page != nil else { return }
        ticker?.cancel()
        ticker = nil
        if let listener { terminal.ignore(listener) }
        listener = nil
        today = budget?.pageStatus
        self.page?.finish()
        draw()
        terminal.showCursor(true)
        self.page = nil
    }

    // MARK: Drawing

    /// Draws now, or once the frame interval has passed since the last drawing.
    private func requestDraw() {
        let wait = lastDraw + Self.frameInterval - ContinuousClock.now
        guard wait > .zero else { draw(); return }
        guard !drawPending else { return }
        drawPending = true
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: wait)  // timer: at most one drawing a frame
            self?.drawPending = false
            self?.draw()
        }
    }

    private func draw() {
        guard let page else { return }
        lastDraw = .now
        // Read at every drawing: the window may have changed.
        let size = Terminal.size() ?? (columns: console.width, rows: 24)
        let status = page.statusLine(width: size.columns, frame: frame, today: today, style: console.style)
        if printedRows == nil, let lines = page.lines(width: size.columns, screenRows: size.rows, frame: frame, style: console.style) {
            let up = rowsDrawn(columns: size.columns)
            var out = up > 0 ? "\r\u{1B}[\(up)A" : "\r"
            for line in lines + [status] { out += "\u{1B}[2K" + line + "\r\n" }
            if lines.count + 1 < up { out += "\u{1B}[J" }
            drawnWidths = (lines + [status]).map { displayWidth($0) }
            console.writeOut(out)
            return
        }
        // Too tall for the screen: clear what was drawn live, then print finished rows in order.
        var out = ""
        if !drawnWidths.isEmpty { out += "\r\u{1B}[\(rowsDrawn(columns: size.columns))A\u{1B}[J" }
        drawnWidths = []
        if printedRows == nil {
            out += console.style.bold(page.heading) + "\r\n"
            printedRows = 0
        }
        while let done = printedRows, done < page.rows.count, page.isDone(done) {
            for line in page.rowLines(done, width: size.columns, layout: page.printedLayout, frame: frame, style: console.style,
                                      padded: false) { out += line + "\r\n" }
            printedRows = done + 1
        }
        out += status + "\r\n"
        // Until the page is over, the status line is redrawn under the rows printed so far.
        if !page.isFinished { drawnWidths = [displayWidth(status)] }
        console.writeOut(out)
    }

    private func drawWaitingLine() {
        guard let waitingText else { return }
        let plain = "\(LivePage.spinner[frame % LivePage.spinner.count]) \(waitingText)"
        // Never wider than the window: a wrapped line would leave its second row behind.
        let width = max(10, (Terminal.size()?.columns ?? console.width) - 1)
        console.writeOut("\r\u{1B}[2K" + LivePage.clip(console.style.dim(plain), plain: plain, width: width, ellipsis: true))
    }

    /// Screen rows the lines drawn last time take now at `columns`, counting rewrapped lines. On a terminal
    /// that cuts lines instead (xterm) this clears a few rows too many, rather than leave an old page.
    private func rowsDrawn(columns: Int) -> Int {
        drawnWidths.reduce(0) { $0 + max(1, ($1 + columns - 1) / max(1, columns)) }
    }
}
