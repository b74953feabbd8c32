import Foundation
import OMDbKit
import LineEditing

/// What a live page shows: every row's state and the lines that draw it at a given width (no I/O). The
/// plain and JSON presenters keep their page's rows in one too.
@MainActor
struct LivePage {
    /// One numbered result, and its record and poster (or why not) once they came: a page's rows, and
    /// the session's (``SearchController/rows``).
    struct Row {
        let item: SearchItem
        /// Its place in the search: page N's rows from (N-1)·10+1, whatever order pages were visited in.
        /// A page that lost a duplicate leaves a gap at its end; an episode comes after every place.
        let number: Int
        var record: Result<Movie, OMDbError>?
        var poster: Result<SavedPoster, OMDbError>?
        /// The load was stopped (Ctrl-C) before this row was filled in.
        var stopped = false
        /// An episode listed by `episodes`: numbered with the search's rows, but not one of them.
        var isEpisode = false
    }

    let heading: String
    let postersOn: Bool
    /// `plot full`: a row shows its whole plot when the page still fits the screen.
    let wholePlots: Bool
    /// A saved file as shown (relative to the working folder when inside it).
    let display: (URL) -> String
    private(set) var rows: [Row]
    private(set) var isFinished = false

    static let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    /// Columns before a row's title: marker, space, number.
    static let indent = String(repeating: " ", count: 2 + TextPresenter.numberWidth + 2)

    init(heading: String, first: Int, items: [SearchItem], postersOn: Bool, wholePlots: Bool = false,
         display: @escaping (URL) -> String = { $0.lastPathComponent }) {
        self.heading = heading
        self.postersOn = postersOn
        self.wholePlots = wholePlots
        self.display = display
        rows = items.enumerated().map { Row(item: $1, number: first + $0) }
    }

    mutating func update(_ update: MovieUpdate, number: Int) {
        guard let index = rows.firstIndex(where: { $0.number == number }) else { return }
        rows[index].apply(update.part)
    }

    /// The page is over; rows still loading were `stopped` (Ctrl-C).
    mutating func finish() {
        isFinished = true
        for index in rows.indices where !rows[index].isFinished(postersOn: postersOn) { rows[index].stopped = true }
    }

    /// Row `index` will not change any more: printed for good when the page is too tall.
    func isDone(_ index: Int) -> Bool { rows[index].stopped || rows[index].isFinished(postersOn: postersOn) }

    /// How much of a row is shown: the roomiest layout that fits the screen is used.
    struct Layout: Equatable {
        /// Plot lines a row shows, the last cut after a word; `nil`: the whole plot (two lines at least).
        var plotLines: Int?
        /// The poster's state as a short tag on the title line instead of a line of its own.
        var posterInline = false
    }

    /// The layouts to try, roomiest first: with `plot full`, whole plots before plots cut to two lines.
    var layouts: [Layout] {
        let cut = postersOn ? [Layout(plotLines: 2), Layout(plotLines: 1), Layout(plotLines: 1, posterInline: true)]
            : [Layout(plotLines: 2), Layout(plotLines: 1)]
        return wholePlots ? [Layout(plotLines: nil)] + cut : cut
    }

    /// The layout of rows printed for good when the page is taller than the screen: the roomiest.
    var printedLayout: Layout { layouts[0] }

    /// The page at `width` in the roomiest layout that fits `screenRows`; nil when none does (then it is
    /// printed row by row).
    func lines(width: Int, screenRows: Int, frame: Int, style: Style) -> [String]? {
        for layout in layouts {
            var lines = [Self.clip(style.bold(heading), plain: heading, width: width)]
            for index in rows.indices { lines += rowLines(index, width: width, layout: layout, frame: frame, style: style, padded: !isFinished) }
            // The heading, the rows, the status line, and the line the cursor waits on.
            guard lines.count + 2 <= screenRows else { continue }
            return lines
        }
        return nil
    }

    /// One row: marker, number, title, year, type and ID; its plot in the layout's lines; its poster's
    /// state on a line of its own, or a tag on the title line in the tightest layout.
    /// - Parameter padded: a short plot is padded to the layout's lines, so a loading page does not jump.
    func rowLines(_ index: Int, width: Int, layout: Layout = Layout(plotLines: 2), frame: Int, style: Style,
                  padded: Bool = true) -> [String] {
        let row = rows[index]
        let room = max(10, width - 1)
        let marker: String
        switch (row.record, row.stopped) {
        case (.success?, _): marker = style.green("✓")
        case (.failure?, _): marker = style.yellow("!")
        case (nil, true): marker = style.dim("–")
        case (nil, false): marker = style.cyan(String(Self.spinner[frame % Self.spinner.count]))
        }
        let ratings = row.movie.map(RatingsSummary.init)
        let tags = postersOn && layout.posterInline ? posterTags(row) : []
        let (title, tagShown) = Self.titleLine(row.item, number: row.number, tags: tags, ratings: ratings, width: room - 2, style: style)
        var lines = [marker + " " + title]

        var plot: [String]
        switch row.record {
        case .success(let movie)?:
            plot = movie.plot.map { Self.fitted(safe($0), width: room, layout: layout) }
                ?? [Self.indent + style.dim("(OMDb has no plot for this title)")]
        case .failure(let error)?:
            // Wrapped as a plot is: the advice that ends the message shows when the layout has room.
            let label = "plot unavailable:"
            plot = Self.fitted(label + " " + safe(error.forPerson), width: room, layout: layout)
            if let first = plot.first, first.hasPrefix(Self.indent + label) {
                plot[0] = Self.indent + style.yellow(label) + first.dropFirst(Self.indent.count + label.count)
            }
        case nil:
            plot = [Self.indent + style.dim(row.stopped ? "(stopped)" : "…")]
        }
        let height = layout.plotLines ?? max(2, plot.count)
        lines += (plot + Array(repeating: "", count: padded ? height : 0)).prefix(height)

        if postersOn, !tagShown {
            let text: String
            switch (row.poster, row.stopped) {
            case (.success(let saved)?, _):
                let verb = saved.wasAlreadyThere ? "poster already saved: " : "poster saved: "
                text = verb + Self.clipPath(display(saved.file), width: room - Self.indent.count - verb.count)
            case (.failure(.posterUnavailable)?, _): text = "no poster"
            case (.failure(let error)?, _) where error.isPosterNotWritten:
                text = "poster not saved: " + safe(error.forPerson)
            case (.failure(let error)?, _): text = "no poster: " + safe(error.forPerson)
            case (nil, true): text = "poster: stopped"
            case (nil, false): text = "poster: loading…"
            }
            let clipped = Self.clip(text, plain: text, width: room - Self.indent.count, ellipsis: true)
            let styled = row.poster.map { (try? $0.get()) != nil ? style.green(clipped) : style.dim(clipped) } ?? style.dim(clipped)
            lines.append(Self.indent + styled)
        }
        return lines
    }

    /// The poster's state as title-line tags, roomiest first: words, then a symbol (`▣` saved, `□` none,
    /// `✗` not written here: why is said under the page).
    private func posterTags(_ row: Row) -> [String] {
        switch (row.poster, row.stopped) {
        case (.success?, _): ["  · poster saved", "  ▣"]
        case (.failure(.posterNotWritten)?, _): ["  · poster not saved", "  ✗"]
        case (.failure?, _): ["  · no poster", "  □"]
        case (nil, true): ["  · poster stopped", "  –"]
        case (nil, false): ["  · poster …", "  …"]
        }
    }

    /// Under the page: how far it has come, and `today`'s count (`requests today: 37 of 1,000`) when kept.
    /// Fitted to `width` by dropping whole parts from the end: a line that wrapped would break the redraw.
    func statusLine(width: Int, frame: Int, today: String? = nil, style: Style) -> String {
        var parts = ["plots \(rows.count { $0.record != nil })/\(rows.count)"]
        if postersOn { parts.append("posters \(rows.count { $0.poster != nil })/\(rows.count)") }
        if let today { parts.append(today) }
        let marker = !isFinished ? String(Self.spinner[frame % Self.spinner.count])
            : rows.contains { $0.stopped } ? "–" : rows.contains { $0.movie == nil } ? "✗" : "✓"
        let room = max(10, width - 1)
        var plain = marker + " " + parts.joined(separator: " · ")
        while parts.count > 1, displayWidth(plain) > room {
            parts.removeLast()
            plain = marker + " " + parts.joined(separator: " · ")
        }
        return Self.clip(style.dim(plain), plain: plain, width: room)
    }

    /// The title keeps this many columns (or all of itself) before the ratings or the poster's state take any.
    static let titleKeeps = 20

    /// A row's first line in `width` columns: `  3. Title (1984)  movie  tt0090190`, its ratings
    /// (`  IMDb 8.6 · RT 93% · MC 90`), and the first of `tags` that fits. The year, type and ID tell rows
    /// apart and stay whole; the ratings and the tag give way before the title keeps fewer than ``titleKeeps``
    /// columns: the tag shrinks first, then goes to a line of its own (`tagShown` false), and only then do
    /// the ratings go, from the end.
    static func titleLine(_ item: SearchItem, number: Int, tags: [String], ratings: RatingsSummary?,
                          width: Int, style: Style) -> (line: String, tagShown: Bool) {
        let label = TextPresenter.numberLabel(number) + " "
        let title = safe(item.title)
        let year = item.year.map { " (\(safe($0.text)))" } ?? ""
        let type = "  \(safe(item.type.description))"
        let id = "  \(safe(item.imdbID))"
        let titleWidth = displayWidth(title)
        let keeps = min(titleWidth, titleKeeps)
        let parts = ratings?.parts.count ?? 0
        // RT and MC only beside the whole title; IMDb's while the title keeps its columns.
        func rated(_ count: Int) -> (text: String, room: Int) {
            count == 0 ? ("", keeps) : ("  " + (ratings?.text(parts: count) ?? ""), count > 1 ? titleWidth : keeps)
        }
        var candidates: [(type: String, tag: String, rated: String, room: Int)] = []
        // The roomiest tag only beside the whole title; then the tag shrinks, then the ratings go one by one.
        if let roomiest = tags.first { candidates.append((type, roomiest, rated(parts).text, titleWidth)) }
        for tag in tags.dropFirst() {
            for count in stride(from: parts, through: 0, by: -1) { candidates.append((type, tag, rated(count).text, rated(count).room)) }
        }
        // No tag (the poster's state goes below), the ratings going one by one.
        for count in stride(from: parts, to: 0, by: -1) { candidates.append((type, "", rated(count).text, rated(count).room)) }
        // Too narrow for the title's columns even alone: it is shortened further, then the type goes.
        let least = min(titleWidth, 8)
        candidates += [(type, "", "", least), ("", "", "", least)]
        for (type, tag, rated, room) in candidates {
            let fixed = displayWidth(label) + displayWidth(year) + displayWidth(type) + displayWidth(id) + displayWidth(rated) + displayWidth(tag)
            guard width - fixed >= room else { continue }
            let shown = clip(title, plain: title, width: width - fixed, ellipsis: true)
            return (style.bold(label + shown + year) + style.dim(type + id) + (rated.isEmpty ? "" : style.yellow(rated)) + style.dim(tag), !tag.isEmpty)
        }
        let plain = label + title + year + id
        return (clip(style.bold(plain), plain: plain, width: width), false)
    }

    /// `text` wrapped under the indent, its last line ended with ` …` when the layout has fewer plot lines.
    static func fitted(_ text: String, width: Int, layout: Layout) -> [String] {
        var lines = wrap(text, width: width, indent: indent)
        if let plotLines = layout.plotLines, lines.count > plotLines {
            lines = Array(lines.prefix(plotLines))
            lines[plotLines - 1] = cutAtWord(lines[plotLines - 1], width: width)
        }
        return lines
    }

    /// `line`, ended with ` …` in `width` columns: cut after a whole word when the last space is near, else mid-word.
    static func cutAtWord(_ line: String, width: Int) -> String {
        let marked = line + " …"
        guard displayWidth(marked) > width else { return marked }
        let cut = clip(line, plain: line, width: width - 2)
        if line.dropFirst(cut.count).first == " " { return cut + " …" }
        // Only the indent's spaces before it: no word to end on.
        if let space = cut.lastIndex(of: " "), !cut[..<space].allSatisfy({ $0 == " " }),
           displayWidth(cut[space...]) <= 16 {
            return String(cut[..<space]) + " …"
        }
        return clip(line, plain: line, width: width, ellipsis: true)
    }

    /// `path` in `width` columns: whole, else its end after `…`, from a folder boundary where it can
    /// (`…/Toxic (2008) [tt0453560].jpg`): the end names the poster.
    static func clipPath(_ path: String, width: Int) -> String {
        guard displayWidth(path) > width else { return path }
        var tail = ""
        var used = 1
        for character in path.reversed() {
            used += displayWidth(character)
            if used > width { break }
            tail.insert(character, at: tail.startIndex)
        }
        if let slash = tail.firstIndex(of: "/") { tail = String(tail[slash...]) }
        return "…" + tail
    }

    /// `styled` when `plain` fits in `width` columns, else `plain` cut to fit (a wrapped line breaks the redraw).
    static func clip(_ styled: String, plain: String, width: Int, ellipsis: Bool = false) -> String {
        guard displayWidth(plain) > width else { return styled }
        var out = ""
        var used = 0
        let limit = width - (ellipsis ? 1 : 0)
        for character in plain {
            let columns = displayWidth(character)
            if used + columns > limit { break }
            out.append(character)
            used += columns
        }
        guard ellipsis else { return out }
        while out.last == " " { out.removeLast() }
        return out + "…"
    }
}

extension LivePage.Row {
    /// The record is in, and the poster too when posters are on.
    func isFinished(postersOn: Bool) -> Bool { record != nil && (!postersOn || poster != nil) }

    var movie: Movie? { try? record?.get() }
    var savedPoster: SavedPoster? { try? poster?.get() }

    mutating func apply(_ part: MovieUpdate.Part) {
        switch part {
        case .record(let result): record = result
        case .poster(let result): poster = result
        }
    }
}
