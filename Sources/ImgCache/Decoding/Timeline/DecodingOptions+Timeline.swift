extension DecodingOptions {
    /// These options for a source of `inspection`'s size, with the target made to fit `timeline`:
    /// unchanged without one or when one output frame fits an entry; otherwise, with
    /// `TimelineBudget.fitsImage`, the widest target of the same aspect (the output's for `.fit`,
    /// the target's for the other modes), from `TimelineBudget.fitted` down, whose output frame
    /// fits, else `overTimelineBudget`.
    func fitted(toTimelineFor inspection: ImageInspection) throws -> DecodingOptions {
        guard let timeline else { return self }
        let stored = inspection.orientation.swapsAxes ? inspection.size.transposed : inspection.size
        func kept(_ options: DecodingOptions) throws -> PixelSize {
            options.keptSize(frameSize: try options.geometry(forStoredSize: stored, orientation: inspection.orientation).outputSize)
        }
        let size = try kept(self)
        guard !timeline.fits(size) else { return self }
        guard timeline.fitsImage else {
            throw ImgCacheError.overTimelineBudget(
                width: size.width, height: size.height, bytesPerEntry: timeline.bytesPerEntry, entries: timeline.entries)
        }
        // Fit: a box of the output's own size; the other modes: the target, scaled as the output must be.
        let base = contentMode == .fit ? size : targetSize ?? size
        var width = max(1, base.width * timeline.fitted(size).width / size.width)
        var options = self
        while width > 0 {
            options.targetSize = PixelSize(width: width, height: max(1, base.height * width / base.width))
            if timeline.fits(try kept(options)) { return options }
            width -= 1
        }
        // Reached only when even a 1-pixel-wide target's output is over the entry's budget.
        throw ImgCacheError.overTimelineBudget(
            width: size.width, height: size.height, bytesPerEntry: timeline.bytesPerEntry, entries: timeline.entries)
    }
}
