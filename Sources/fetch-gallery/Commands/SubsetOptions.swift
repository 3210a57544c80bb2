import ArgumentParser
import GalleryKit

/// `--where` and `--uid-list`: the rows a dataset run keeps, of a URL list or of a finished dataset
/// (`--input-format webdataset|parquet-images|files`).
struct SubsetOptions: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp("""
        Keep only the rows where a column meets a condition: COLUMN OP VALUE with OP one of ==, != (numbers \
        or text), >=, <=, >, < (numbers), e.g. 'width>=256', 'status==success', "tag=='a b'". Repeat it: all \
        must hold. A row whose column is not a number never meets >=, <=, >, <.
        """, valueName: "condition"))
    var conditions: [String] = []

    @Option(name: .customLong("uid-list"), help: ArgumentHelp("""
        Keep only the rows whose uid column (32 hex digits, DataComp's uid) is in this .npy file of numpy dtype \
        u8,u8 (two uint64 per uid: its first 16 hex digits, then its last 16), as DataComp's baselines write it.
        """, valueName: "file.npy"))
    var uidList: String?

    @Option(name: .customLong("uid-col"), help: "The column --uid-list matches.") var uidColumn = "uid"

    /// The subset the options describe; a malformed condition or an unreadable list is a usage error.
    func subset() throws -> DatasetSubset {
        var subset = DatasetSubset()
        subset.uidColumn = uidColumn
        do {
            subset.conditions = try conditions.map { text throws(DatasetError) in try DatasetCondition(parsing: text) }
            subset.uids = try uidList.map { path throws(DatasetError) in try UIDList(npy: path) }
        } catch {
            throw ValidationError(error.description)
        }
        return subset
    }
}
