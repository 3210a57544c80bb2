import Foundation

/// A plan made by ``GalleryRun/plan()`` (the listing read once): its photos, lines i (from 0, after the
/// header) of the slice. The whole file is read and checked first, so a damaged plan stops the run
/// before anything is fetched, naming the file and line. Each photo's page is its line + 1, which
/// orders the photos when shards are merged (each line belongs to one shard).
struct PlanSource: PhotoSource {
    /// The plan file.
    var path: String
    /// The source the plan records.
    var recordedSource: String

    var name: String { "plan" }
    var sourceDescription: String { recordedSource }
    var shardUnit: ShardUnit? { .line }
    /// A plan of an API records the address its listing came from (noted as the plan is checked); a plan
    /// of a URL list records none.
    var imageURLOrigin: ImageURLOrigin { .recorded }

    /// Photos handed on at a time.
    static let batchSize = 100

    func reader(slice: ShardSpec, context: SourceContext) -> any ListingReader {
        Reader(path: path, slice: slice, context: context)
    }

    struct Reader: ListingReader {
        let path: String
        let slice: ShardSpec
        let context: SourceContext
        /// Nil until the checking pass has run; nil again at the end.
        var reader: PlanReader?
        var index = 0
        var checked = false
        var pending: [ListingStep] = []

        init(path: String, slice: ShardSpec, context: SourceContext) {
            self.path = path
            self.slice = slice
            self.context = context
        }

        mutating func next() async -> ListingStep? {
            if !pending.isEmpty { return pending.removeFirst() }
            if !checked { return check() }
            guard let reader else { return nil }
            var batch: [SelectedPhoto] = []
            do throws(PlanError) {
                while !context.isStopping(), batch.count < PlanSource.batchSize {
                    defer { index += 1 }
                    if !slice.owns(line: index) {
                        if try reader.skip() { continue } else { break }
                    }
                    guard var planned = try reader.next() else { break }
                    planned.page = index + 1
                    batch.append(planned)
                }
            } catch {
                // Checked whole a moment ago: only a plan replaced or damaged during the run gets here.
                self.reader = nil
                pending = [.photos(batch)]
                return .failure(ListingFailure(page: nil, reason: error.description, isSourceError: true))
            }
            if batch.count < PlanSource.batchSize { self.reader = nil }  // the end, or the run stopping
            return .photos(batch)
        }

        /// The first pass: every line checked, the photos of the slice counted, the listing address noted.
        private mutating func check() -> ListingStep {
            checked = true
            var owned = 0
            do throws(PlanError) {
                let reader = try PlanReader(path: path)
                var index = 0
                while try reader.next() != nil {
                    if slice.owns(line: index) { owned += 1 }
                    index += 1
                }
                if let address = reader.end?.listingAddress { context.noteAddress(address) }
                self.reader = try PlanReader(path: path)
            } catch {
                return .failure(ListingFailure(page: nil, reason: error.description, isSourceError: true))
            }
            return .page(ListedPage(number: 1, totalPages: 1, added: owned))
        }
    }
}
