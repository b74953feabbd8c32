import Foundation

extension OMDbClient {
    /// The poster at `url`, asked for at `width`: the rewritten (wider) URL first, and when that
    /// fails in any way (network, HTTP status, not an image), the URL OMDb gave. Returns the
    /// answer, its URL as it may be shown, and why the wider one was not used (`nil` when it was,
    /// or when no other width was asked for).
    func fetchPoster(_ url: URL, width: PosterWidth, limit: Int) async throws -> (HTTPResponse, String, String?) {
        let wide = width.rewrite(url)
        if wide != url {
            let failure = await wideFailure(wide, limit: limit)
            guard let reason = failure.reason else { return (failure.response!, failure.shown, nil) }
            try Task.checkCancellation()
            let (response, shown) = try await fetch(url, countsTowardQuota: false, limit: limit)
            return (response, shown, "width \(width) failed (\(reason)), saved OMDb's")
        }
        let (response, shown) = try await fetch(url, countsTowardQuota: false, limit: limit)
        return (response, shown, nil)
    }

    /// Tries the wider URL: its answer when it is an image, else why not.
    private func wideFailure(_ wide: URL, limit: Int) async -> (response: HTTPResponse?, shown: String, reason: String?) {
        do {
            let (response, shown) = try await fetch(wide, countsTowardQuota: false, limit: limit)
            guard (200..<300).contains(response.statusCode) else { return (nil, shown, "HTTP \(response.statusCode)") }
            guard ImageFormat(sniffing: response.body) != nil else { return (nil, shown, "not an image") }
            return (response, shown, nil)
        } catch {
            return (nil, "", (error as? OMDbError)?.description ?? "cancelled")
        }
    }
}

extension PosterStore {
    /// True when an image already saved is at least as wide as this store asks for. At OMDb's
    /// own width any file will do; an image whose width cannot be read is kept too.
    func isWideEnough(_ data: Data) -> Bool {
        guard width != .standard, let pixels = ImageWidth.pixels(of: data) else { return true }
        return pixels >= width.minimumPixels
    }

    /// ``isWideEnough(_:)`` for a file.
    func isWideEnough(file: URL) -> Bool {
        guard width != .standard, let data = FileManager.default.contents(atPath: file.path) else { return true }
        return isWideEnough(data)
    }
}
