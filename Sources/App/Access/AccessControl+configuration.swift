import Access

extension AccessControl.Settings {
    /// The access settings of a configuration.
    init(_ configuration: Configuration) {
        self.init(mode: AccessMode.resolve(configuration.access, host: configuration.host), publicURL: configuration.publicURL,
                  cacheSeconds: configuration.accessCacheSeconds, shareDays: configuration.shareExpiryDays,
                  trustedProxies: configuration.trustedProxies, trustedAuthHeader: configuration.trustedAuthHeader,
                  metricsToken: configuration.metricsToken)
    }
}
