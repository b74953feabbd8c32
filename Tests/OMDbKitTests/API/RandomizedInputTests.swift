import Foundation
import Testing
@testable import OMDbKit

/// SplitMix64: a tiny PRNG with a fixed seed, so a failing input can be found again.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generated inputs with the edges a hostile or broken server can reach.
struct HostileInput {
    var random: SplitMix64

    /// Scalars that break naive code: NUL and controls, separators, dots, bidi overrides, BOM,
    /// noncharacters, the last scalars before and after the surrogate gap, combining marks, wide ones.
    static let edgeScalars: [Unicode.Scalar] = [
        0x0, 0x1, 0x9, 0xA, 0xD, 0x1B, 0x1F, 0x20, 0x22, 0x2E, 0x2F, 0x5C, 0x7F, 0x80, 0x85, 0x9F, 0xA0, 0x301, 0x36F,
        0x200B, 0x200E, 0x2028, 0x202E, 0x2066, 0x3000, 0xD7FF, 0xE000, 0xFE0F, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF,
        0x1F600, 0x20000, 0x10FFFF, 0x5343, 0xE9, 0x2013,
    ].compactMap(Unicode.Scalar.init(_:))

    /// Numbers as JSON text, edges included (some are beyond Double or Int on purpose).
    static let edgeNumbers = [
        "0", "-0", "1", "-1", "10", "98", "1.5", "2000", "2000.0", "1e308", "-1e308", "1e400", "5e-324", "1e-400",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999", "1000000001",
    ]

    /// A number in `range`, straight from the generator (modulo: the slight bias is no matter
    /// here). `Int.random(in:using:)` took a quarter of these tests' CPU in an unoptimised build.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1   // 0: every Int
        let draw = random.next()
        return range.lowerBound &+ Int(truncatingIfNeeded: span == 0 ? draw : draw % span)
    }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func scalar() -> Unicode.Scalar {
        switch int(0...3) {
        case 0: return Self.edgeScalars[int(0...Self.edgeScalars.count - 1)]
        case 1: return Unicode.Scalar(UInt8(int(0x20...0x7E)))
        default:
            // Any scalar: draw until outside the surrogate gap.
            while true {
                if let scalar = Unicode.Scalar(UInt32(int(0...0x10FFFF))) { return scalar }
            }
        }
    }

    mutating func text(maxLength: Int) -> String {
        let length = chance(3) ? int(0...maxLength * 10) : int(0...maxLength)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(scalar()) }
        if chance(5) { return "N/A" }
        if chance(5) { return "tt" + String(int(0...99_999_999)) }
        return String(scalars)
    }

    mutating func number() -> String {
        chance(60) ? Self.edgeNumbers[int(0...Self.edgeNumbers.count - 1)] : String(int(Int.min...Int.max))
    }

    /// Any JSON value, at most `depth` levels deep.
    mutating func jsonValue(depth: Int) -> String {
        switch int(0...(depth > 0 ? 7 : 4)) {
        case 0: return "null"
        case 1: return chance(50) ? "true" : "false"
        case 2: return number()
        case 3, 4: return Self.quote(text(maxLength: 30))
        case 5: return "[" + (0..<int(0...3)).map { _ in jsonValue(depth: depth - 1) }.joined(separator: ",") + "]"
        default:
            return "{" + (0..<int(0...4)).map { _ in "\(Self.quote(text(maxLength: 8))):\(jsonValue(depth: depth - 1))" }.joined(separator: ",") + "}"
        }
    }

    /// A field: mostly a string, sometimes a number, null, or another type.
    mutating func field(_ name: String) -> String? {
        if chance(10) { return nil }
        let value = chance(60) ? Self.quote(text(maxLength: 40)) : chance(50) ? number() : jsonValue(depth: 1)
        return "\(Self.quote(name)):\(value)"
    }

    mutating func row() -> String {
        if chance(10) { return jsonValue(depth: 2) }
        return "{" + ["Title", "Year", "imdbID", "Type", "Poster"].compactMap { field($0) }.joined(separator: ",") + "}"
    }

    /// A search answer: mostly OMDb's shape with odd values, sometimes anything at all.
    mutating func searchBody() -> String {
        switch int(0...9) {
        case 0: return jsonValue(depth: 3)
        case 1: return String(text(maxLength: 50).prefix(50))
        case 2: return #"{"Response":"False","Error":\#(Self.quote(text(maxLength: 40)))}"#
        default:
            var parts = ["\"Search\":[" + (0..<int(0...12)).map { _ in row() }.joined(separator: ",") + "]"]
            // Mostly a plausible count, so that the rows behind it are decoded too.
            if chance(70) {
                parts.append("\"totalResults\":\(chance(50) ? "\"\(int(0...500))\"" : String(int(0...500)))")
            } else if let total = field("totalResults") {
                parts.append(total)
            }
            parts.append(#""Response":"True""#)
            var body = "{" + parts.shuffled(using: &random).joined(separator: ",") + "}"
            if chance(5) { body = String(body.prefix(int(0...body.count))) }
            return body
        }
    }

    mutating func recordBody() -> String {
        let fields = ["Title", "Year", "imdbID", "Type", "Poster", "Plot", "Rated", "Metascore", "imdbRating", "totalSeasons"]
        var parts = fields.compactMap { field($0) }
        parts.append("\"Ratings\":" + (chance(70) ? "[" + (0..<int(0...3)).map { _ in
            chance(70) ? "{\(field("Source") ?? "\"x\":1"),\(field("Value") ?? "\"y\":2")}" : jsonValue(depth: 1)
        }.joined(separator: ",") + "]" : jsonValue(depth: 1)))
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// JSON string syntax for any text: quotes, backslashes and C0 controls escaped.
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Generated answers and names (3 seeds × 500 pages, 300 records, 1,000 names) from fixed seeds:
/// nothing traps, every outcome is a value that holds its promises or a typed error. The fuzz
/// targets `omdb-answer` and `wire-repair` search the same decoders for crashes, guided by
/// coverage, for as long as they are given; the promises are checked here only, and poster
/// names have no fuzz target.
///
/// Serialized: CPU-bound, its cases one at a time leave a core to the rest of the run.
@Suite(.serialized) struct RandomizedInputTests {
    static let seeds: [UInt64] = [0x5EED_0001, 0xDEAD_BEEF, 42]

    @Test(arguments: seeds)
    func searchAnswersDecodeToAValidPageOrAnError(seed: UInt64) {
        var input = HostileInput(random: SplitMix64(seed: seed))
        var pages = 0
        for _ in 0..<500 {
            let body = input.searchBody()
            do {
                let (items, total) = try OMDbDecoding.searchPage(json(body), query: SearchQuery(text: "x"), url: "u")
                pages += 1
                #expect((0...SearchPage.maxTotalResults).contains(total), "\(body)")
                #expect(items.allSatisfy { !$0.imdbID.isEmpty && $0.imdbID == $0.imdbID.trimmingCharacters(in: .whitespacesAndNewlines) }, "\(body)")
                let page = SearchPage(query: SearchQuery(text: "x"), number: input.int(1...100), totalResults: total, items: items, shownSoFar: items.count)
                #expect(page.lastPage >= page.number && page.totalResults >= 0)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        // The generator must reach the success path often, or it tests nothing there.
        #expect(pages > 100)
    }

    @Test(arguments: seeds)
    func recordAnswersDecodeToAMovieOrAnError(seed: UInt64) {
        var input = HostileInput(random: SplitMix64(seed: seed))
        var movies = 0
        for _ in 0..<300 {
            let body = input.recordBody()
            do {
                let movie = try OMDbDecoding.decode(Movie.self, json(body), query: "tt1", url: "u")
                movies += 1
                #expect(!movie.imdbID.isEmpty && !movie.title.isEmpty)
                #expect(movie.ratings.allSatisfy { !$0.source.isEmpty && !$0.text.isEmpty })
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        #expect(movies > 50)
    }

    @Test(arguments: seeds)
    func posterNamesAreAlwaysSafeAndKeepTheirID(seed: UInt64) {
        var input = HostileInput(random: SplitMix64(seed: seed))
        for _ in 0..<1_000 {
            let title = input.text(maxLength: 120)
            let year: String? = input.chance(20) ? nil : input.text(maxLength: input.chance(20) ? 300 : 12)
            let id = input.chance(50) ? "tt" + String(input.int(0...99_999_999)) : input.text(maxLength: input.chance(30) ? 400 : 12)
            let format = ImageFormat.allCases[input.int(0...ImageFormat.allCases.count - 1)]
            let name = PosterName.fileName(title: title, year: year, imdbID: id, format: format)
            func context() -> Comment { "title \(title.debugDescription) year \(year.debugDescription) id \(id.debugDescription)" }
            #expect(name.utf8.count <= PosterName.maxBytes, context())
            #expect(!name.isEmpty && !name.hasPrefix("."), context())
            #expect(!name.contains("/") && !name.unicodeScalars.contains("\u{0}"), context())
            #expect(name.hasSuffix(PosterName.marker(for: id) + format.fileExtension), context())
            #expect(name == PosterName.fileName(title: title, year: year, imdbID: id, format: format))
        }
    }

    @Test func longIDsThatShareAPrefixKeepDistinctMarkers() {
        var input = HostileInput(random: SplitMix64(seed: 7))
        var markers = Set<String>()
        let stem = "tt" + String(repeating: "9", count: 300)
        for index in 0..<1_000 {
            markers.insert(PosterName.marker(for: stem + String(index) + input.text(maxLength: 3)))
        }
        #expect(markers.count == 1_000)
        #expect(markers.allSatisfy { $0.utf8.count <= PosterName.maxIDBytes + 3 })
    }
}
