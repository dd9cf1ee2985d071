/// `GET /memories`'s answer: the day asked for (`YYYY-MM-DD`) and the photos taken on its month
/// and day in earlier years, the latest year first, each year's photos in the order taken.
struct MemoryList: Encodable {
    struct Year: Encodable {
        let year: Int
        let yearsAgo: Int
        let photos: [PhotoRecord]
    }

    let date: String
    let years: [Year]
}
