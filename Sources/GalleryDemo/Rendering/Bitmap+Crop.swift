import GalleryImaging

extension Bitmap {
    /// The pixels of a rectangle, which must lie inside the bitmap. Copies row by row, since the
    /// rectangle's rows are not contiguous in the source.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= self.width && y + height <= self.height,
                     "crop rectangle outside the bitmap")
        if x == 0 && y == 0 && width == self.width && height == self.height { return self }
        let channels = format.channels
        let rowBytes = width * channels
        let sourceStride = bytesPerRow
        return withUnsafeBytes { source in
            Bitmap(width: width, height: height, format: format) { destination in
                for row in 0..<height {
                    let from = (y + row) * sourceStride + x * channels
                    let to = row * rowBytes
                    destination.baseAddress!.advanced(by: to)
                        .copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: rowBytes)
                }
            }
        }
    }
}
