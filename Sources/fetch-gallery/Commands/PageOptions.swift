import ArgumentParser
import GalleryKit

extension DuplicateMode: ExpressibleByArgument {}

/// What the gallery's pages show and how the index is paged; the same flags for `run` and `merge`.
struct PageOptions: ParsableArguments {
    @Flag(name: .customLong("show-location"),
          help: "Record the photos' EXIF GPS position and show it on their pages and in gallery.json (left out by default: it often gives away a photographer's home).")
    var showLocation = false

    @Option(name: .customLong("photos-per-page"), help: "Photos on one index page (index.html, index-2.html, ...).")
    var photosPerPage = GalleryPageOptions().photosPerIndexPage

    @Option(name: .customLong("duplicates"),
            help: "Show copies of one photo once: 'exact' groups identical files, 'near' also resized, recompressed or converted copies, 'off' (the default) shows every file. Files are never deleted; the shown photo's page credits every source.")
    var duplicates: DuplicateMode = .off

    @Option(name: .customLong("display-size"),
            help: "Longest edge of the picture a photo page shows, made beside the thumbnails (the original stays linked on the page; 0: show the original itself).")
    var displaySize = 2048

    func validate() throws {
        guard photosPerPage >= 1 else { throw ValidationError("--photos-per-page must be at least 1") }
        guard displaySize >= 0 else { throw ValidationError("--display-size must be 0 (none) or a positive number of pixels") }
    }

    var options: GalleryPageOptions {
        GalleryPageOptions(photosPerIndexPage: photosPerPage, showLocation: showLocation, duplicates: duplicates,
                           displaySize: displaySize)
    }
}
