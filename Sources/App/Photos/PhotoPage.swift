import Observability

/// A page of a list: `{"photos":[Photo…],"total":N,"next":URL|null}`.
struct PhotoPage: Encodable {
    let photos: [PhotoRecord]
    let total: Int
    /// The next page's URL; null on the last page.
    let next: Nullable<String>
}
