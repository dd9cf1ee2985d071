/// The EXIF orientation tag: how the stored pixels must be turned to stand upright.
enum ExifOrientation: Int {
    case up = 1, mirrored = 2, upsideDown = 3, upsideDownMirrored = 4
    case transposed = 5, rotatedClockwise = 6, transverse = 7, rotatedCounterclockwise = 8

    /// Orientations 5–8 turn the photo a quarter, so upright width is stored height.
    var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixels that end up in `rect` of the upright image of `levelWidth` × `levelHeight`.
    ///
    /// Cropping these and then applying the orientation gives the upright tile, so a tile can be
    /// cut from a photo read top to bottom without rotating the whole photo first.
    func storedRect(of rect: PixelRect, levelWidth: Int, levelHeight: Int) -> PixelRect {
        // Upright pixel (x, y) comes from stored pixel (u, v); W × H is the stored size.
        let storedWidth = swapsAxes ? levelHeight : levelWidth
        let storedHeight = swapsAxes ? levelWidth : levelHeight
        let x0 = rect.x, x1 = rect.x + rect.width, y0 = rect.y, y1 = rect.y + rect.height
        switch self {
        case .up:  // (x, y)
            return rect
        case .mirrored:  // (W−1−x, y)
            return PixelRect(x: storedWidth - x1, y: y0, width: rect.width, height: rect.height)
        case .upsideDown:  // (W−1−x, H−1−y)
            return PixelRect(x: storedWidth - x1, y: storedHeight - y1, width: rect.width, height: rect.height)
        case .upsideDownMirrored:  // (x, H−1−y)
            return PixelRect(x: x0, y: storedHeight - y1, width: rect.width, height: rect.height)
        case .transposed:  // (y, x)
            return PixelRect(x: y0, y: x0, width: rect.height, height: rect.width)
        case .rotatedClockwise:  // (y, H−1−x)
            return PixelRect(x: y0, y: storedHeight - x1, width: rect.height, height: rect.width)
        case .transverse:  // (W−1−y, H−1−x)
            return PixelRect(x: storedWidth - y1, y: storedHeight - x1, width: rect.height, height: rect.width)
        case .rotatedCounterclockwise:  // (W−1−y, x)
            return PixelRect(x: storedWidth - y1, y: x0, width: rect.height, height: rect.width)
        }
    }
}
