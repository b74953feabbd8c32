import ImageFormats

/// The image formats a poster may be saved as (target `ImageFormats`, shared with TerminalImages).
package typealias ImageFormat = ImageFormats.ImageFormat
