/// What the TIFF fuzzer checks on every input: reading the layout ends (no hang, no trap) with
/// a layout or an error, and every tile of a layout it accepts lies within the input.
public enum TIFFLayoutFuzzing {
    public static func check(_ input: UnsafeRawBufferPointer) {
        let bytes = TIFFMemoryBytes(Array(input))
        guard let layout = try? TIFFPyramidLayout.read(bytes) else { return }
        precondition(layout.levels.count >= 2, "a pyramid has at least two levels")
        for level in layout.levels {
            precondition(level.width > 0 && level.height > 0 && level.columns > 0 && level.rows > 0)
            // Every tile of small levels, the corners of large ones: enough to reach every array end.
            let cells = level.columns * level.rows <= 4096
                ? (0..<level.rows).flatMap { row in (0..<level.columns).map { ($0, row) } }
                : [(0, 0), (level.columns - 1, 0), (0, level.rows - 1), (level.columns - 1, level.rows - 1)]
            for (column, row) in cells {
                guard let tile = try? level.tile(column: column, row: row, in: bytes) else { continue }
                precondition(tile.offset >= 0 && tile.length > 0 && tile.offset + tile.length <= bytes.count, "a tile past the end")
            }
        }
    }
}
