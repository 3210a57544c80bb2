// The photo services were once named `…Source`, a word the listings (``PhotoSource``) now own alone.
// The old names still compile, with a warning that names the new one.

@available(*, deprecated, renamed: "CommonsService")
public typealias CommonsSource = CommonsService
@available(*, deprecated, renamed: "OpenverseService")
public typealias OpenverseSource = OpenverseService
@available(*, deprecated, renamed: "UnsplashService")
public typealias UnsplashSource = UnsplashService
@available(*, deprecated, renamed: "PexelsService")
public typealias PexelsSource = PexelsService
@available(*, deprecated, renamed: "FlickrService")
public typealias FlickrSource = FlickrService
@available(*, deprecated, renamed: "FiveHundredPxService")
public typealias FiveHundredPxSource = FiveHundredPxService
@available(*, deprecated, renamed: "URLListParser")
public typealias URLListSource = URLListParser
