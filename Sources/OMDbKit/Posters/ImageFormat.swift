import ImageFormats

/// The image formats a poster may be saved as, told from the bytes (target `ImageFormats`,
/// which TerminalImages shares without depending on OMDbKit).
package typealias ImageFormat = ImageFormats.ImageFormat
