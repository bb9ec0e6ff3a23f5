/* ui-support.h - what the UI tests share: the demo data, the main loop,
 * widget look-ups and screenshots */
#pragma once

#include <gtk/gtk.h>

#include "mat-library.h"

G_BEGIN_DECLS

/* The demo data */

/* The value of the environment variable @name; aborts the test when it
 * is unset or empty, as it is when the test is not run through meson. */
const char  *ui_need_env               (const char    *name);
/* The demo Material.lib (DEMO_LIB) as it is on disk. Returns: (transfer full) */
GBytes      *ui_demo_bytes             (void);
/* A library read from @bytes; asserts that it parses. Returns: (transfer full) */
MatLibrary  *ui_library_new            (GBytes        *bytes);
/* The bytes a save of @library would write; asserts that it saves.
 * Returns: (transfer full) */
GBytes      *ui_library_save           (MatLibrary    *library);
/* Asserts that @library has a material @name. Returns: (transfer none) */
MatMaterial *ui_find_material          (MatLibrary    *library,
                                        const char    *name);
/* Asserts that @material has a phase @index. Returns: (transfer none) */
MatPhase    *ui_phase_at               (MatMaterial   *material,
                                        guint          index);
/* The number of bytes where @a and @b differ (they must be the same
 * size); the first such offset goes to @first, G_MAXSIZE when none. */
guint        ui_count_byte_differences (GBytes        *a,
                                        GBytes        *b,
                                        gsize         *first);

/* The main loop */

typedef gboolean (*UiCondition) (gpointer data);

/* Dispatches what is pending, a few rounds, without waiting. */
void         ui_pump                   (void);
/* Runs the main loop for @ms milliseconds: frames are drawn meanwhile. */
void         ui_spin_ms                (guint          ms);
/* Runs the main loop until @condition (@data) holds. Returns: FALSE when
 * @timeout_s seconds passed first. */
gboolean     ui_wait_for               (UiCondition    condition,
                                        gpointer       data,
                                        guint          timeout_s);
/* A UiCondition: the GtkWidget @widget is mapped and has a size. */
gboolean     ui_widget_is_shown        (gpointer       widget);
/* A UiCondition: the pointer at @data (a gpointer *) is %NULL, as a weak
 * pointer becomes when its object goes. */
gboolean     ui_pointer_cleared        (gpointer       data);
/* Destroys @window and waits until it is gone. */
void         ui_close_window           (GtkWindow     *window);
/* Returns: (transfer none): @widget's template child @name of the
 * template of @type; fails the test when there is none. */
gpointer     ui_template_child         (GtkWidget     *widget,
                                        GType          type,
                                        const char    *name);

/* Windows and widgets */

/* A new window titled @title holding @child, presented, @width x
 * @height by default (-1: its natural size); returns once @child is
 * shown. Destroy it with gtk_window_destroy(). Returns: (transfer none) */
GtkWindow   *ui_show                   (GtkWidget     *child,
                                        const char    *title,
                                        int            width,
                                        int            height);
/* The first toplevel window of @type, or NULL. Returns: (transfer none) */
gpointer     ui_find_toplevel          (GType          type);

/* The first of @root and its descendants, depth first, of @type (or
 * with @css_class). Returns: (transfer none) (nullable) */
GtkWidget   *ui_find_by_type           (GtkWidget     *root,
                                        GType          type);
GtkWidget   *ui_find_by_css_class      (GtkWidget     *root,
                                        const char    *css_class);
/* Adds to @found, in order, @root or its descendants of @type (or with
 * @css_class), without looking inside one that was found. */
void         ui_collect_by_type        (GtkWidget     *root,
                                        GType          type,
                                        GPtrArray     *found);
void         ui_collect_by_css_class   (GtkWidget     *root,
                                        const char    *css_class,
                                        GPtrArray     *found);

typedef gboolean (*UiWidgetMatch) (GtkWidget     *widget,
                                   gconstpointer  data);

/* The first of @root and its descendants, depth first, that @match.
 * Returns: (transfer none) (nullable) */
GtkWidget   *ui_find_widget            (GtkWidget     *root,
                                        UiWidgetMatch  match,
                                        gconstpointer  data);

/* Screenshots, saved as @name in SCREENSHOT_DIR (else the test build
 * directory). Each PNG is read back and must not be blank. */

/* Saves @texture as the PNG @name. */
void         ui_save_texture           (GdkTexture    *texture,
                                        const char    *name);
/* Lets @widget settle, then saves it as its window's renderer draws it
 * as the PNG @name. */
void         ui_screenshot             (GtkWidget     *widget,
                                        const char    *name);

/* Real pointer input, through the X server (XTest): the events reach the
 * widgets as a user's would, through GDK and the gesture controllers.
 * Points are in @widget's coordinates; each call lets the events arrive. */

void         ui_pointer_move           (GtkWidget     *widget,
                                        double         x,
                                        double         y);
/* Presses (or releases) pointer button @button where the pointer is. */
void         ui_pointer_button         (GtkWidget     *widget,
                                        guint          button,
                                        gboolean       press);
/* Presses button 1 at (@x, @y), moves by (@dx, @dy) in steps, releases. */
void         ui_pointer_drag           (GtkWidget     *widget,
                                        double         x,
                                        double         y,
                                        double         dx,
                                        double         dy);

/* Real key presses through the X server: @keysym (an X keysym, the same
 * numbers as GDK_KEY_*) pressed and released with @mods (Shift, Control,
 * Alt) held, into the window of @widget, which gets the keyboard focus
 * first. Each call lets the events arrive. */
void         ui_key                    (GtkWidget     *widget,
                                        guint          keysym,
                                        GdkModifierType mods);

G_END_DECLS
