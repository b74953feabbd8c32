import Files

/// The process a temporary poster file belongs to (see ``WriterProcess``).
package typealias PosterOwner = WriterProcess
