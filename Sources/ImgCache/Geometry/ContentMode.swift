/// How a source image is fitted to a target size.
public enum ContentMode: String, Sendable, CaseIterable {
    /// Scale to fit inside the target, keeping the aspect ratio; one side may be shorter than the target.
    case fit
    /// Scale to cover the target, keeping the aspect ratio; one side may be longer than the target.
    case fill
    /// Scale to cover the target, then crop the centre (or the part `CropGravity` names) to
    /// exactly the target size.
    case crop
    /// Scale to fit inside the target, then extend to exactly the target size (imgproxy's
    /// `extend`): the image placed by its gravity (the centre by default), the rest filled with
    /// the request's background (transparent by default). A decoder fits; the pipeline pads
    /// (`Padding`), and the frames kept of an animation fit the budget at the target size.
    case pad
}
