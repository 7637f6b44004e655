package dev.steadfast.testsupport;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The browser test names both Debian packages to install when Chromium or its driver is missing. */
class BrowserInstallTest {

    private static final String INSTALL = "apt-get install chromium chromium-driver";

    @TempDir
    Path dir;

    @Test
    void aMissingDriverNamesBothPackages() throws IOException {
        String m = Browser.missing(executable("chromium"), dir.resolve("chromedriver"));
        assertTrue(m.contains(INSTALL) && m.contains("chromedriver") && !m.contains("chromium]"), m);
    }

    @Test
    void aMissingBrowserNamesBothPackages() throws IOException {
        String m = Browser.missing(dir.resolve("chromium"), executable("chromedriver"));
        assertTrue(m.contains(INSTALL) && m.contains(dir.resolve("chromium").toString()), m);
    }

    @Test
    void nothingIsMissingWhenBothAreThere() throws IOException {
        assertNull(Browser.missing(executable("chromium"), executable("chromedriver")));
    }

    private Path executable(String name) throws IOException {
        return Files.createFile(dir.resolve(name), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
    }
}
