/* mat-texture-picker.c - a dialog choosing a texture of a Textures.lib
 *
 * The grid is a GtkGridView over GtkFilterListModel (a case-insensitive
 * substring GtkStringFilter on "name") over the MatTextureLibrary. Tiles
 * come from a GtkSignalListItemFactory; a tile's thumbnail is made on
 * first bind from the smallest mip level at least THUMB_SOURCE pixels
 * wide (level 0 for smaller textures), at most THUMB_MAX_SIDE a side
 * (mat_texture_dup_rgba_fitted: a smaller level, or a box-filtered
 * reduction), kept per texture for the life of the dialog, and drawn with
 * cairo over a checkerboard. A texture too large to show gets an empty
 * frame, a warning sign and the reason in its tooltip.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "mat-dialogs.h"
#include "mat-texture-picker-private.h"
#include "mat-tooltip.h"
#include "mat-window.h"

/* Tile thumbnails are THUMB_SIZE logical pixels; the mip level shown is
 * the smallest at least THUMB_SOURCE pixels on its longer side. */
#define THUMB_SIZE   96
#define THUMB_SOURCE 64
/* No thumbnail is larger than this a side. */
#define THUMB_MAX_SIDE 256
#define CHECKER_SIZE 8

struct _MatTexturePicker
{
  GtkWindow           parent_instance;

  GtkLabel           *subtitle_label;
  GtkSearchEntry     *search_entry;
  GtkStack           *stack;
  GtkGridView        *grid_view;
  GtkSingleSelection *selection;
  GtkFilterListModel *filter_model;
  GtkStringFilter    *name_filter;
  GtkLabel           *no_match_label;
  GtkLabel           *load_error_label;

  MatTextureLibrary  *textures;
  MatDocument        *document;     /* (nullable) remembers a Textures.lib chosen here */
  char               *current;
  GHashTable         *thumbnails;   /* MatTexture -> GdkTexture (nullable) */
  GCancellable       *cancellable;
  GCancellable       *choosing;     /* the file chooser open */
  gboolean            finished;
};

G_DEFINE_FINAL_TYPE (MatTexturePicker, mat_texture_picker, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_TEXTURES,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

char *
mat_texture_format_name (guint format)
{
  if (format == 0)
    /* Translators: Texm format 0, 8-bit indexes into a palette */
    return g_strdup (_("palette (0)"));
  return g_strdup_printf ("%u", format);
}

/* ------------------------------------------------------------------ */
/* Thumbnails                                                           */

static guint
thumbnail_level (MatTexture *texture)
{
  guint w = mat_texture_get_width (texture);
  guint h = mat_texture_get_height (texture);
  guint n = mat_texture_get_mip_count (texture);
  guint level = 0;

  while (level + 1 < n && MAX (w >> (level + 1), h >> (level + 1)) >= THUMB_SOURCE)
    level++;
  return level;
}

/* Returns: (transfer none) (nullable): the thumbnail of @texture, made
 * on first use; %NULL when its pixels do not decode. */
static GdkTexture *
thumbnail_get (MatTexturePicker *self,
               MatTexture       *texture)
{
  g_autoptr(GBytes) pixels = NULL;
  GdkTexture *thumbnail = NULL;
  gpointer cached;
  guint w = 0, h = 0;

  if (g_hash_table_lookup_extended (self->thumbnails, texture, NULL, &cached))
    return cached;

  if (mat_texture_get_error (texture) == NULL)
    pixels = mat_texture_dup_rgba_fitted (texture, thumbnail_level (texture), THUMB_MAX_SIDE,
                                          &w, &h, NULL);
  if (pixels != NULL && w > 0 && h > 0)
    thumbnail = gdk_memory_texture_new ((int) w, (int) h, GDK_MEMORY_R8G8B8A8,
                                        pixels, (gsize) w * 4);
  g_hash_table_insert (self->thumbnails, g_object_ref (texture), thumbnail);
  return thumbnail;
}

static void
unref_nullable (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static void
rounded_rect (cairo_t *cr,
              double   x,
              double   y,
              double   w,
              double   h,
              double   r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
draw_thumbnail (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  GdkTexture *thumbnail = g_object_get_data (G_OBJECT (area), "mat-thumbnail");
  double x, y, w, h, scale;
  int tw, th;

  if (thumbnail == NULL)
    {
      /* A texture that does not decode: an empty frame under the icon. */
      rounded_rect (cr, 0.5, 0.5, width - 1, height - 1, 6);
      cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.08);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.3);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      return;
    }

  tw = gdk_texture_get_width (thumbnail);
  th = gdk_texture_get_height (thumbnail);
  scale = MIN ((double) width / tw, (double) height / th);
  /* a texture of one row (or column) stays a line a pixel wide */
  w = MAX (floor (tw * scale), 1);
  h = MAX (floor (th * scale), 1);
  x = floor ((width - w) / 2);
  y = floor ((height - h) / 2);

  cairo_save (cr);
  rounded_rect (cr, x, y, w, h, 6);
  cairo_clip (cr);

  /* The checkerboard under the texture, so alpha shows. */
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.8, 0.8, 0.8);
  for (int row = 0; row * CHECKER_SIZE < h; row++)
    for (int col = row % 2; col * CHECKER_SIZE < w; col += 2)
      cairo_rectangle (cr, x + col * CHECKER_SIZE, y + row * CHECKER_SIZE,
                       CHECKER_SIZE, CHECKER_SIZE);
  cairo_fill (cr);

  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, tw, th);
    cairo_pattern_t *pattern;

    gdk_texture_download (thumbnail, cairo_image_surface_get_data (surface),
                          (gsize) cairo_image_surface_get_stride (surface));
    cairo_surface_mark_dirty (surface);
    cairo_translate (cr, x, y);
    cairo_scale (cr, w / tw, h / th);
    cairo_set_source_surface (cr, surface, 0, 0);
    pattern = cairo_get_source (cr);
    /* Enlarged texels stay sharp; reduced ones are averaged. */
    cairo_pattern_set_filter (pattern, scale >= 2 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
    cairo_pattern_set_extend (pattern, CAIRO_EXTEND_PAD);
    cairo_paint (cr);
    cairo_surface_destroy (surface);
  }
  cairo_restore (cr);

  rounded_rect (cr, x + 0.5, y + 0.5, w - 1, h - 1, 6);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.18);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

/* ------------------------------------------------------------------ */
/* Tiles                                                                */

static void
tile_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            MatTexturePicker         *self)
{
  GtkWidget *tile = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *thumb = gtk_drawing_area_new ();
  GtkWidget *error_icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");
  GtkWidget *large_icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *badge = gtk_label_new (NULL);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *caption = gtk_label_new (NULL);
  PangoAttrList *bold = pango_attr_list_new ();

  gtk_widget_add_css_class (tile, "texture-tile");
  gtk_widget_set_margin_start (tile, 6);
  gtk_widget_set_margin_end (tile, 6);
  gtk_widget_set_margin_top (tile, 8);
  gtk_widget_set_margin_bottom (tile, 6);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (thumb), THUMB_SIZE);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (thumb), THUMB_SIZE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (thumb), draw_thumbnail, NULL, NULL);
  gtk_widget_set_halign (overlay, GTK_ALIGN_CENTER);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), thumb);

  gtk_image_set_pixel_size (GTK_IMAGE (error_icon), 48);
  gtk_widget_add_css_class (error_icon, "error");
  gtk_widget_add_css_class (error_icon, "texture-error");
  gtk_widget_set_halign (error_icon, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (error_icon, GTK_ALIGN_CENTER);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), error_icon);

  gtk_image_set_pixel_size (GTK_IMAGE (large_icon), 48);
  gtk_widget_add_css_class (large_icon, "warning");
  gtk_widget_add_css_class (large_icon, "texture-too-large");
  gtk_widget_set_halign (large_icon, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (large_icon, GTK_ALIGN_CENTER);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), large_icon);

  gtk_box_append (GTK_BOX (tile), overlay);

  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  gtk_label_set_attributes (GTK_LABEL (name), bold);
  pango_attr_list_unref (bold);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_width_chars (GTK_LABEL (name), 12);
  gtk_label_set_max_width_chars (GTK_LABEL (name), 14);
  gtk_label_set_single_line_mode (GTK_LABEL (name), TRUE);
  gtk_widget_set_margin_top (name, 4);
  gtk_widget_add_css_class (name, "texture-name");
  gtk_box_append (GTK_BOX (tile), name);

  gtk_label_set_ellipsize (GTK_LABEL (caption), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (caption), TRUE);
  gtk_widget_add_css_class (caption, "caption");
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_add_css_class (caption, "numeric");
  gtk_widget_add_css_class (caption, "texture-caption");
  gtk_box_append (GTK_BOX (tile), caption);

  /* Atlases: a pill under the caption. */
  gtk_widget_add_css_class (badge, "badge");
  gtk_widget_add_css_class (badge, "numeric");
  gtk_widget_add_css_class (badge, "texture-page");
  gtk_widget_set_halign (badge, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_top (badge, 2);
  gtk_box_append (GTK_BOX (tile), badge);

  g_object_set_data (G_OBJECT (item), "mat-thumb", thumb);
  g_object_set_data (G_OBJECT (item), "mat-error-icon", error_icon);
  g_object_set_data (G_OBJECT (item), "mat-large-icon", large_icon);
  g_object_set_data (G_OBJECT (item), "mat-badge", badge);
  g_object_set_data (G_OBJECT (item), "mat-name", name);
  g_object_set_data (G_OBJECT (item), "mat-caption", caption);
  gtk_list_item_set_child (item, tile);
}

static void
tile_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           MatTexturePicker         *self)
{
  MatTexture *texture = gtk_list_item_get_item (item);
  GtkWidget *tile = gtk_list_item_get_child (item);
  GtkWidget *thumb = g_object_get_data (G_OBJECT (item), "mat-thumb");
  GtkWidget *error_icon = g_object_get_data (G_OBJECT (item), "mat-error-icon");
  GtkWidget *large_icon = g_object_get_data (G_OBJECT (item), "mat-large-icon");
  GtkWidget *badge = g_object_get_data (G_OBJECT (item), "mat-badge");
  GtkLabel *name = g_object_get_data (G_OBJECT (item), "mat-name");
  GtkLabel *caption = g_object_get_data (G_OBJECT (item), "mat-caption");
  const char *error = mat_texture_get_error (texture);
  guint rects = mat_texture_get_page_rects (texture);
  g_autofree char *caption_text = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *too_large = NULL;
  GdkTexture *thumbnail;

  gtk_label_set_text (name, mat_texture_get_name (texture));

  if (error != NULL)
    {
      gtk_label_set_text (caption, _("Does not parse"));
      /* Translators: %s is the texture name, then why it does not parse */
      tooltip = g_strdup_printf (_("%s does not parse: %s"), mat_texture_get_name (texture), error);
      thumbnail = NULL;
    }
  else
    {
      g_autofree char *format = mat_texture_format_name (mat_texture_get_format (texture));
      guint mips = mat_texture_get_mip_count (texture);

      /* Translators: texture format, width and height, e.g. "565 · 64×64" */
      caption_text = g_strdup_printf (_("%s · %u×%u"), format,
                                      mat_texture_get_width (texture),
                                      mat_texture_get_height (texture));
      gtk_label_set_text (caption, caption_text);
      tooltip = g_strdup_printf (ngettext ("%s\nFormat %s, %u×%u, %u mip level",
                                           "%s\nFormat %s, %u×%u, %u mip levels", mips),
                                 mat_texture_get_name (texture), format,
                                 mat_texture_get_width (texture),
                                 mat_texture_get_height (texture), mips);
      thumbnail = thumbnail_get (self, texture);
      if (mat_texture_get_fit (texture, thumbnail_level (texture), THUMB_MAX_SIDE, NULL, NULL, NULL)
          == MAT_TEXTURE_FIT_TOO_LARGE)
        {
          g_autofree char *text = NULL;

          too_large = mat_texture_dup_fit_note (texture, MAT_TEXTURE_FIT_TOO_LARGE, 0, 0);
          text = g_strdup_printf ("%s\n%s", tooltip, too_large);
          g_free (tooltip);
          tooltip = g_steal_pointer (&text);
        }
    }
  mat_tooltip_set_text (tile, tooltip);
  gtk_widget_set_visible (large_icon, too_large != NULL);
  mat_tooltip_set_text (large_icon, too_large);
  gtk_widget_set_visible (error_icon, error != NULL);
  if (error != NULL)
    mat_tooltip_set_text (error_icon, error);
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (caption), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (caption), "error");

  if (rects > 0)
    {
      g_autofree char *text = g_strdup_printf (_("Page %u"), rects);
      g_autofree char *tip =
        g_strdup_printf (ngettext ("An atlas: its Page chunk holds %u rectangle (the cells a phase’s p17 can pick)",
                                   "An atlas: its Page chunk holds %u rectangles (the cells a phase’s p17 can pick)",
                                   rects), rects);

      gtk_label_set_text (GTK_LABEL (badge), text);
      mat_tooltip_set_text (badge, tip);
    }
  gtk_widget_set_visible (badge, rects > 0);

  if (thumbnail != NULL)
    g_object_set_data_full (G_OBJECT (thumb), "mat-thumbnail",
                            g_object_ref (thumbnail), g_object_unref);
  else
    g_object_set_data (G_OBJECT (thumb), "mat-thumbnail", NULL);
  gtk_widget_queue_draw (thumb);
}

static void
tile_unbind (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             MatTexturePicker         *self)
{
  GtkWidget *thumb = g_object_get_data (G_OBJECT (item), "mat-thumb");

  if (thumb != NULL)
    g_object_set_data (G_OBJECT (thumb), "mat-thumbnail", NULL);
}

/* ------------------------------------------------------------------ */
/* State                                                                */

/* Returns: (transfer none) (nullable) */
static MatTexture *
selected_texture (MatTexturePicker *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

static void
update_state (MatTexturePicker *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *subtitle = NULL;

  if (self->textures == NULL)
    gtk_stack_set_visible_child_name (self->stack, "no-library");
  else if (shown == 0 && search[0] != '\0')
    {
      g_autofree char *text = NULL;

      /* Translators: %s is what was typed in the search entry */
      text = g_strdup_printf (_("No texture name contains “%s”."), search);
      gtk_label_set_text (self->no_match_label, text);
      gtk_stack_set_visible_child_name (self->stack, "no-match");
    }
  else if (shown == 0)
    {
      gtk_label_set_text (self->no_match_label, _("This Textures.lib holds no textures."));
      gtk_stack_set_visible_child_name (self->stack, "no-match");
    }
  else
    gtk_stack_set_visible_child_name (self->stack, "grid");

  gtk_widget_set_sensitive (GTK_WIDGET (self->search_entry), self->textures != NULL);

  if (self->textures != NULL)
    {
      GFile *file = mat_texture_library_get_file (self->textures);
      g_autofree char *base = file != NULL ? g_file_get_basename (file) : NULL;
      guint total = g_list_model_get_n_items (G_LIST_MODEL (self->textures));
      const char *where = base != NULL ? base : "Textures.lib";

      if (shown == total)
        /* Translators: the file name, then how many textures it holds */
        subtitle = g_strdup_printf (ngettext ("%s · %u texture", "%s · %u textures", total),
                                    where, total);
      else
        /* Translators: the file name, then how many textures match the search */
        subtitle = g_strdup_printf (ngettext ("%s · %u of %u texture", "%s · %u of %u textures", total),
                                    where, shown, total);
    }
  gtk_label_set_text (self->subtitle_label, subtitle != NULL ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "picker.choose",
                                 selected_texture (self) != NULL);
}

/* Position of @name in the filtered list, GTK_INVALID_LIST_POSITION when
 * it is not shown. Names compare without case, as the engine does. */
static guint
find_shown (MatTexturePicker *self,
            const char       *name)
{
  GListModel *model = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (model);

  if (name == NULL || name[0] == '\0')
    return GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MatTexture) texture = g_list_model_get_item (model, i);

      if (g_ascii_strcasecmp (mat_texture_get_name (texture), name) == 0)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
select_current (MatTexturePicker *self)
{
  guint position = find_shown (self, self->current);

  gtk_single_selection_set_selected (self->selection, position);
  if (position != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->grid_view), "list.scroll-to-item",
                                "u", position);
}

static void
finish (MatTexturePicker *self,
        const char       *name)
{
  if (self->finished)
    return;
  self->finished = TRUE;

  g_object_ref (self);
  g_signal_emit (self, signals[SIGNAL_CHOSEN], 0, name);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

/* ------------------------------------------------------------------ */
/* Callbacks and actions                                                */

static void
search_changed (MatTexturePicker *self)
{
  gtk_string_filter_set_search (self->name_filter,
                                gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
stop_search (MatTexturePicker *self)
{
  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  else
    gtk_window_close (GTK_WINDOW (self));
}

static void
search_activate (MatTexturePicker *self)
{
  /* Enter in the search entry picks the only match, or the selected one. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 1)
    gtk_single_selection_set_selected (self->selection, 0);
  if (selected_texture (self) != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "picker.choose", NULL);
}

static void
grid_activate (GtkGridView      *grid,
               guint             position,
               MatTexturePicker *self)
{
  g_autoptr(MatTexture) texture = g_list_model_get_item (G_LIST_MODEL (self->filter_model), position);

  if (texture != NULL)
    finish (self, mat_texture_get_name (texture));
}

static void
filter_items_changed (MatTexturePicker *self)
{
  /* Keep the selection on what was selected when it is still shown. */
  if (selected_texture (self) == NULL && self->current != NULL)
    {
      guint position = find_shown (self, self->current);

      if (position != GTK_INVALID_LIST_POSITION)
        gtk_single_selection_set_selected (self->selection, position);
    }
  update_state (self);
}

static void
selection_changed (MatTexturePicker *self)
{
  MatTexture *texture = selected_texture (self);

  /* What is selected is what a later search keeps selected. */
  if (texture != NULL)
    {
      g_free (self->current);
      self->current = g_strdup (mat_texture_get_name (texture));
    }
  update_state (self);
}

static void
picker_choose (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTexturePicker *self = MAT_TEXTURE_PICKER (widget);
  MatTexture *texture = selected_texture (self);

  if (texture != NULL)
    finish (self, mat_texture_get_name (texture));
}

static void
picker_untextured (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  finish (MAT_TEXTURE_PICKER (widget), "");
}

static void
textures_loaded (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(MatTexturePicker) self = user_data;
  g_autoptr(MatTextureLibrary) textures = NULL;
  g_autoptr(GError) error = NULL;

  textures = mat_texture_library_load_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->finished)
    return;
  if (textures == NULL)
    {
      gtk_label_set_text (self->load_error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->load_error_label), TRUE);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->load_error_label), FALSE);
  mat_texture_picker_set_textures (self, textures);
  /* the library's document remembers the choice for the next time */
  if (self->document != NULL)
    mat_document_choose_textures (self->document, textures);
}

void
mat_texture_picker_open_file (MatTexturePicker *self,
                              GFile            *file)
{
  g_return_if_fail (MAT_IS_TEXTURE_PICKER (self));
  g_return_if_fail (G_IS_FILE (file));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  mat_texture_library_load_async (file, self->cancellable, textures_loaded,
                                  g_object_ref (self));
}

static GtkFileFilter *
lib_filter_new (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Texture libraries (Textures.lib)"));
  gtk_file_filter_add_suffix (filter, "lib");
  gtk_file_filter_add_suffix (filter, "LIB");
  return filter;
}

static void
textures_chosen_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(MatTexturePicker) self = user_data;
  g_autoptr(GListModel) files = mat_dialogs_open_files_finish (result);

  g_clear_object (&self->choosing);
  if (files != NULL && !self->finished)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, 0);

      mat_texture_picker_open_file (self, file);
    }
}

static void
picker_open_textures (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  MatTexturePicker *self = MAT_TEXTURE_PICKER (widget);
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) filter = lib_filter_new ();

  if (self->choosing != NULL)
    return;
  self->choosing = g_cancellable_new ();
  g_list_store_append (filters, filter);
  mat_dialogs_open_files (GTK_WINDOW (self), _("Choose a Textures.lib"), G_LIST_MODEL (filters),
                          FALSE, self->choosing, textures_chosen_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
mat_texture_picker_dispose (GObject *object)
{
  MatTexturePicker *self = MAT_TEXTURE_PICKER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->choosing != NULL)
    g_cancellable_cancel (self->choosing);
  g_clear_object (&self->choosing);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_TEXTURE_PICKER);
  g_clear_object (&self->textures);
  g_clear_object (&self->document);
  g_clear_pointer (&self->thumbnails, g_hash_table_unref);

  G_OBJECT_CLASS (mat_texture_picker_parent_class)->dispose (object);
}

static void
mat_texture_picker_finalize (GObject *object)
{
  MatTexturePicker *self = MAT_TEXTURE_PICKER (object);

  g_free (self->current);

  G_OBJECT_CLASS (mat_texture_picker_parent_class)->finalize (object);
}

static void
mat_texture_picker_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  MatTexturePicker *self = MAT_TEXTURE_PICKER (object);

  switch (prop_id)
    {
    case PROP_TEXTURES:
      g_value_set_object (value, self->textures);
      break;
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_picker_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  MatTexturePicker *self = MAT_TEXTURE_PICKER (object);

  switch (prop_id)
    {
    case PROP_TEXTURES:
      mat_texture_picker_set_textures (self, g_value_get_object (value));
      break;
    case PROP_DOCUMENT:
      mat_texture_picker_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_picker_class_init (MatTexturePickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_texture_picker_dispose;
  object_class->finalize = mat_texture_picker_finalize;
  object_class->get_property = mat_texture_picker_get_property;
  object_class->set_property = mat_texture_picker_set_property;

  /* "textures": changes when the user opens a Textures.lib from here. */
  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* "document": the one a Textures.lib opened here is chosen for. */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, MAT_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_CHOSEN] =
    g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /* The template's filter looks up MatTexture:name. */
  g_type_ensure (MAT_TYPE_TEXTURE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-texture-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, stack);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, grid_view);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, selection);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, filter_model);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, name_filter);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, no_match_label);
  gtk_widget_class_bind_template_child (widget_class, MatTexturePicker, load_error_label);

  gtk_widget_class_install_action (widget_class, "picker.choose", NULL, picker_choose);
  gtk_widget_class_install_action (widget_class, "picker.untextured", NULL, picker_untextured);
  gtk_widget_class_install_action (widget_class, "picker.open-textures", NULL, picker_open_textures);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
mat_texture_picker_init (MatTexturePicker *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->thumbnails = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                            g_object_unref, unref_nullable);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (tile_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (tile_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (tile_unbind), self);
  gtk_grid_view_set_factory (self->grid_view, factory);
  g_object_unref (factory);

  g_signal_connect_object (self->grid_view, "activate", G_CALLBACK (grid_activate), self, 0);
  g_signal_connect_object (self->search_entry, "search-changed",
                           G_CALLBACK (search_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "stop-search",
                           G_CALLBACK (stop_search), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "activate",
                           G_CALLBACK (search_activate), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (filter_items_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "notify::selected",
                           G_CALLBACK (selection_changed), self, G_CONNECT_SWAPPED);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));

  update_state (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

MatTexturePicker *
mat_texture_picker_new (GtkWindow         *parent,
                        MatTextureLibrary *textures,
                        const char        *current)
{
  MatTexturePicker *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures), NULL);

  self = g_object_new (MAT_TYPE_TEXTURE_PICKER,
                       "transient-for", parent,
                       NULL);
  /* Over an editor window, a Textures.lib opened here is chosen for the
   * library the window shows. */
  if (MAT_IS_WINDOW (parent))
    mat_texture_picker_set_document (self, mat_window_get_document (MAT_WINDOW (parent)));
  self->current = g_strdup (current);
  mat_texture_picker_set_textures (self, textures);
  return self;
}

MatTextureLibrary *
mat_texture_picker_get_textures (MatTexturePicker *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_PICKER (self), NULL);

  return self->textures;
}

void
mat_texture_picker_set_textures (MatTexturePicker  *self,
                                 MatTextureLibrary *textures)
{
  g_return_if_fail (MAT_IS_TEXTURE_PICKER (self));
  g_return_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures));

  if (!g_set_object (&self->textures, textures))
    return;

  g_hash_table_remove_all (self->thumbnails);
  gtk_filter_list_model_set_model (self->filter_model, G_LIST_MODEL (textures));
  select_current (self);
  update_state (self);
  if (textures != NULL)
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->grid_view));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

MatDocument *
mat_texture_picker_get_document (MatTexturePicker *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_PICKER (self), NULL);

  return self->document;
}

void
mat_texture_picker_set_document (MatTexturePicker *self,
                                 MatDocument      *document)
{
  g_return_if_fail (MAT_IS_TEXTURE_PICKER (self));
  g_return_if_fail (document == NULL || MAT_IS_DOCUMENT (document));

  if (g_set_object (&self->document, document))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

gboolean
mat_texture_picker_choose_for_test (MatTexturePicker *self,
                                    const char       *name)
{
  guint position;

  g_return_val_if_fail (MAT_IS_TEXTURE_PICKER (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (name[0] == '\0')
    return gtk_widget_activate_action (GTK_WIDGET (self), "picker.untextured", NULL);

  position = find_shown (self, name);
  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  gtk_single_selection_set_selected (self->selection, position);
  return gtk_widget_activate_action (GTK_WIDGET (self), "picker.choose", NULL);
}
