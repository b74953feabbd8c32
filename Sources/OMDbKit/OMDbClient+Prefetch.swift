import Foundation

extension OMDbClient {
    /// Placeholder until the page single-flight lands: does nothing yet.
    public func prefetch(through number: Int) {}
}
