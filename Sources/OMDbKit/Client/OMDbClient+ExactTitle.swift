import Foundation

extension OMDbClient {
    /// OMDb's one best match for exactly this title (`t=`), with the query's type and year
    /// filters: the way out when a search answers `Too many results.` (`Up`, `It`, `9`).
    /// One request (none when the disk cache has it); not remembered in the session.
    /// - Throws: ``OMDbError`` (``OMDbError/notFound(query:)`` when nothing has that title) or `CancellationError`.
    public nonisolated func movie(exactTitle query: SearchQuery, plot: PlotLength = .short) async throws -> Movie {
        try await sender.api(.exactTitle(query, plot: plot)) { [sender] response, shown in
            try OMDbDecoding.decode(Movie.self, response, query: query.text, url: shown, key: sender.key)
        }
    }
}

extension MovieUpdate {
    /// An update made outside ``OMDbClient/details(for:plot:posters:)``, such as the row of an exact-title match.
    package static func at(_ index: Int, item: SearchItem, part: Part) -> MovieUpdate {
        MovieUpdate(index: index, item: item, part: part)
    }
}

extension SearchItem {
    /// The search row a full record stands for.
    public init(_ movie: Movie) {
        self.init(imdbID: movie.imdbID, title: movie.title, year: movie.year, type: movie.type, posterURL: movie.posterURL)
    }
}
