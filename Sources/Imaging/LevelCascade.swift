/// The tiles of levels `top` down to `bottom` of a pyramid, made from the rows of level `top`
/// handed over in order: each strip of tile-size rows is cut into tiles (encoded by a
/// `TileCrew`), then halved into the strip of the level below, which is cut in its turn once
/// full. Memory is two strips a level, whatever the photo's height; every level is the one above
/// averaged two by two, rounded up at odd edges, exactly `TilePyramid`'s geometry.
final class LevelCascade {
    /// What becomes of one encoded tile.
    typealias Sink = @Sendable (TileCoordinate, [UInt8]) throws -> Void

    private final class Level {
        let z: Int
        let width: Int
        let height: Int
        let columns: Int
        var strips: [RGBPixels]
        var batches: [TileCrew.Batch?] = [nil, nil]
        var current = 0
        /// Rows in the current strip, and rows of the level seen so far.
        var filled = 0
        var seen = 0
        var tileRow = 0
        /// The whole level, when asked for (a thumbnail is made from it).
        var whole: RGBPixels?

        init(z: Int, width: Int, height: Int, tileSize: Int, keepsWhole: Bool) {
            self.z = z
            self.width = width
            self.height = height
            columns = (width + tileSize - 1) / tileSize
            let rows = min(tileSize, height)
            strips = [RGBPixels(width: width, rows: rows), RGBPixels(width: width, rows: rows)]
            whole = keepsWhole ? RGBPixels(width: width, rows: height) : nil
        }

        var isComplete: Bool { seen == height }
    }

    private let levels: [Level]
    private let tileSize: Int
    private let quality: Int
    private let crew: TileCrew
    private let wanted: (TileCoordinate) -> Bool
    private let sink: Sink

    /// - Parameters:
    ///   - keeping: a level (between `bottom` and `top`) whose pixels are also kept whole.
    ///   - wanted: whether a tile is to be encoded (false: it exists already, or is not asked for).
    init(pyramid: TilePyramid, top: Int, bottom: Int = 0, keeping: Int? = nil, quality: Int, crew: TileCrew,
         wanted: @escaping (TileCoordinate) -> Bool = { _ in true }, sink: @escaping Sink) {
        precondition(top <= pyramid.maxZoom && bottom >= 0 && bottom <= top)
        tileSize = pyramid.tileSize
        levels = stride(from: top, through: bottom, by: -1).map { z in
            let size = pyramid.levelSize(z)!
            return Level(z: z, width: size.width, height: size.height, tileSize: pyramid.tileSize, keepsWhole: z == keeping)
        }
        self.quality = quality
        self.crew = crew
        self.wanted = wanted
        self.sink = sink
    }

    /// Width and height of level `top`, whose rows are handed over.
    var size: (width: Int, height: Int) { (levels[0].width, levels[0].height) }

    /// Whether every row of level `top` has been handed over.
    var isComplete: Bool { levels[0].isComplete }

    /// Where the next rows of level `top` go, and how many fit there (at least one while the
    /// level is not complete): decode straight into it, then call `advance`.
    func space() throws -> (pixels: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int) {
        let level = levels[0]
        if level.filled == 0 { try reclaim(level) }
        let strip = level.strips[level.current]
        return (strip.row(level.filled), strip.stride, min(strip.capacity - level.filled, level.height - level.seen))
    }

    /// `rows` rows were written where `space` said.
    func advance(_ rows: Int) throws {
        try added(rows, to: 0)
    }

    /// Waits until every tile has been encoded and handed to the sink; the pixels of the kept
    /// level, if one was asked for.
    func finish() throws -> RGBPixels? {
        precondition(levels.allSatisfy(\.isComplete), "rows missing")
        try drain()
        return levels.first { $0.whole != nil }?.whole
    }

    /// Waits until every tile handed over so far has been encoded and given to the sink (after a
    /// failure too: nothing may reach the sink once the caller has moved on).
    func drain() throws {
        var failure: Error?
        for level in levels {
            for index in level.batches.indices {
                guard let batch = level.batches[index] else { continue }
                do { try crew.wait(batch) } catch { failure = failure ?? error }
                level.batches[index] = nil
            }
        }
        if let failure { throw failure }
    }

    /// The current strip of `level` may be written again once its earlier tiles are encoded.
    private func reclaim(_ level: Level) throws {
        if let batch = level.batches[level.current] {
            try crew.wait(batch)
            level.batches[level.current] = nil
        }
    }

    private func added(_ rows: Int, to index: Int) throws {
        let level = levels[index]
        if let whole = level.whole {
            let strip = level.strips[level.current]
            (whole.row(level.seen)).update(from: strip.row(level.filled), count: rows * strip.stride)
        }
        level.filled += rows
        level.seen += rows
        guard level.filled == level.strips[level.current].capacity || level.isComplete else { return }
        try emit(index)
    }

    /// Cuts the full strip of level `index` into tiles and halves it into the level below.
    private func emit(_ index: Int) throws {
        let level = levels[index]
        let strip = level.strips[level.current]
        let rows = level.filled
        let batch = TileCrew.Batch()
        let T = tileSize, quality = quality, sink = sink
        var works: [() throws -> Void] = []
        for x in 0..<level.columns {
            let tile = TileCoordinate(z: level.z, x: x, y: level.tileRow)
            guard wanted(tile) else { continue }
            let width = min(T, level.width - x * T)
            works.append { try sink(tile, strip.jpeg(x: x * T, y: 0, width: width, height: rows, quality: quality)) }
        }
        crew.submit(batch, works)
        level.batches[level.current] = batch
        if index + 1 < levels.count {
            let below = levels[index + 1]
            if below.filled == 0 { try reclaim(below) }
            let written = strip.halve(rows: rows, into: below.strips[below.current], at: below.filled)
            try added(written, to: index + 1)
        }
        level.current = 1 - level.current
        level.filled = 0
        level.tileRow += 1
    }
}
