/// The largest images this service returns (`maxArea`, `maxWidth`, `maxHeight` in info.json).
public struct ImageLimits: Hashable, Sendable {
    /// Most pixels (width × height) of one answer. Default 50 000 000.
    public var maxArea: Int
    /// Widest answer in pixels; nil for no limit but the area. Default nil.
    public var maxWidth: Int?
    /// Highest answer in pixels; nil means `maxWidth` (as the specification says). Default nil.
    public var maxHeight: Int?

    public init(maxArea: Int = 50_000_000, maxWidth: Int? = nil, maxHeight: Int? = nil) {
        precondition(maxArea > 0)
        self.maxArea = maxArea
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
    }

    /// The height limit in force: `maxHeight`, else `maxWidth`.
    public var effectiveMaxHeight: Int? { maxHeight ?? maxWidth }

    /// Whether an answer of this size is allowed.
    public func allows(width: Int, height: Int) -> Bool {
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || area > maxArea { return false }
        if let maxWidth, width > maxWidth { return false }
        if let maxHeight = effectiveMaxHeight, height > maxHeight { return false }
        return true
    }

    /// `width` × `height` scaled down, keeping the aspect ratio, until it is allowed (the
    /// specification's implementation note: the area first, rounding down, then each side).
    public func fitted(width: Int, height: Int) -> (width: Int, height: Int) {
        var w = width, h = height
        if Double(w) * Double(h) > Double(maxArea) {
            let scale = (Double(maxArea) / (Double(w) * Double(h))).squareRoot()
            w = Int(Double(w) * scale)
            h = Int(Double(h) * scale)
        }
        if let maxWidth, w > maxWidth {
            w = maxWidth
            h = Int(Double(height) * Double(maxWidth) / Double(width) + 0.5)
        }
        if let maxHeight = effectiveMaxHeight, h > maxHeight {
            h = maxHeight
            w = Int(Double(width) * Double(maxHeight) / Double(height) + 0.5)
        }
        return (max(1, w), max(1, h))
    }
}
