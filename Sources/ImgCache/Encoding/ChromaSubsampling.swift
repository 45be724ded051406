/// How much colour detail a JPEG or AVIF keeps against its brightness.
public enum ChromaSubsampling: String, Sendable, Hashable, CaseIterable {
    /// One colour sample for every 2 x 2 pixels: a third fewer samples to code; the colours of
    /// thin lines and small text bleed.
    case yuv420 = "420"
    /// A colour sample for every pixel: for text, line art and flat graphics with sharp colour edges.
    case yuv444 = "444"
}
