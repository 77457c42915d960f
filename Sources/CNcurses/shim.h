// ncursesw for Swift 6 (reference/terminal-ui.md §2.2). SwiftPM drops pkg-config's
// -D_XOPEN_SOURCE, so the wide-character API is switched on here; macros built from
// NCURSES_BITS and the library's globals do not import, so they get accessors.
#ifndef IAPDESK_CNCURSES_SHIM_H
#define IAPDESK_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <ncursesw/curses.h>

extern int wcwidth(wchar_t);

// glibc declares these only under _XOPEN_SOURCE, which SwiftPM drops (see above).
extern int posix_openpt(int flags);
extern int grantpt(int fd);
extern int unlockpt(int fd);
extern char *ptsname(int fd);

static inline WINDOW *iapdesk_stdscr(void) { return stdscr; }
static inline int iapdesk_lines(void) { return LINES; }
static inline int iapdesk_cols(void) { return COLS; }
static inline int iapdesk_colors(void) { return COLORS; }
static inline int iapdesk_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t iapdesk_a_normal(void) { return A_NORMAL; }
static inline attr_t iapdesk_a_bold(void) { return A_BOLD; }
static inline attr_t iapdesk_a_dim(void) { return A_DIM; }
static inline attr_t iapdesk_a_underline(void) { return A_UNDERLINE; }
static inline attr_t iapdesk_a_reverse(void) { return A_REVERSE; }
static inline attr_t iapdesk_a_italic(void) { return A_ITALIC; }

/// The UTF-8 codeset check of §2.3, as a plain int for Swift.
static inline int iapdesk_codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != 0 && (codeset[0] == 'U' || codeset[0] == 'u') && (codeset[1] == 'T' || codeset[1] == 't') && (codeset[2] == 'F' || codeset[2] == 'f');
}

/// Writes one cell: a grapheme (up to a few code points) with attributes and a colour pair.
static inline int iapdesk_put_cell(int row, int col, const wchar_t *text, attr_t attrs, int pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, 0, &pair) != OK) return ERR;
    return mvwadd_wch(stdscr, row, col, &cell);
}

#include <sys/ioctl.h>
#include <termios.h>

/// Sets a terminal's size (ioctl is variadic, which Swift cannot call): for benchmarks
/// that run the console on a pseudo-terminal.
static inline int iapdesk_set_winsize(int fd, unsigned short rows, unsigned short cols) {
    struct winsize size = { rows, cols, 0, 0 };
    return ioctl(fd, TIOCSWINSZ, &size);
}

#endif
