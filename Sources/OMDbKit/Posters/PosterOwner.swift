import Files

/// The process a temporary poster file belongs to (see ``WriterProcess``): a run sharing the
/// folder removes only the leftovers of runs that are gone.
package typealias PosterOwner = WriterProcess
