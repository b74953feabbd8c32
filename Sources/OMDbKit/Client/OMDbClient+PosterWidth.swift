import Files
import Foundation

extension OMDbClient {
    /// The poster at `url`, asked for at `width`, through `consume` (which saves it): the
    /// rewritten (wider) URL first, and when that fails in any way (network, HTTP status, not an
    /// image), the URL OMDb gave. Returns what `consume` made and why the wider one was not used
    /// (`nil` when it was, or when no other width was asked for).
    nonisolated func downloadPoster<T: Sendable>(_ url: URL, width: PosterWidth,
                                                 _ consume: @escaping @Sendable (TransportResponse, String) async throws -> T) async throws -> (T, String?) {
        let wide = width.rewrite(url)
        guard wide != url else { return (try await sender.download(url, consume), nil) }
        do {
            return (try await sender.download(wide, consume), nil)
        } catch let error as OMDbError {
            try Task.checkCancellation()
            let reason = switch error {
            case .httpStatus(let status, _): "HTTP \(status)"
            case .posterNotAnImage: "not an image"
            default: error.description
            }
            return (try await sender.download(url, consume), "width \(width) failed (\(reason)), saved OMDb's")
        }
    }
}

extension PosterStore {
    /// True when an image already saved is at least as wide as this store asks for. At OMDb's
    /// own width any file will do; an image whose width cannot be read is kept too. Only the
    /// file's header is read. A file the trust rule refuses (someone else's, planted in the
    /// folder) is never taken as saved: false, whatever its width.
    func isWideEnough(file: URL) -> Bool {
        let pixels: Int?
        do { pixels = try ImageWidth.pixels(ofFile: file) } catch { return false }
        guard width != .standard, let pixels else { return true }
        return pixels >= width.minimumPixels
    }
}
