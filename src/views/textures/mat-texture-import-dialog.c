/* mat-texture-import-dialog.c - a picture becomes a texture of Textures.lib */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "cp1251.h"
#include "mat-file.h"
#include "mat-picture.h"
#include "mat-texture-draw.h"
#include "mat-texture-import-dialog.h"
#include "mat-tooltip.h"
#include "texm-alpha.h"

struct _MatTextureImportDialog
{
  GtkWindow          parent_instance;

  MatTextureLibrary *library;
  GFile             *file;
  GdkPixbuf         *picture;       /* 8-bit RGBA, NULL until one loaded */
  GdkPixbuf         *fitted;        /* the picture as the last preview
                                       encoded it: brought to powers of two */
  TexmAlphaKind      alpha;
  guint32            suggested;
  MatTexture        *target;        /* the texture the name replaces */
  MatMaterial       *material;      /* the material being edited, or NULL */
  gboolean           emboss_bump;
  MatTexture        *preview_target;
  gboolean           name_valid;
  gboolean           preview_ok;
  gboolean           setting_name;
  gboolean           name_edited;
  gboolean           setting_format;
  gboolean           setting_size;
  gboolean           format_chosen;
  gboolean           loading;
  gboolean           previewing;
  gboolean           importing;
  gboolean           busy;
  guint              preview_serial;
  GCancellable      *cancellable;
  cairo_surface_t   *source_surface;
  cairo_surface_t   *result_surface;
#if !GTK_CHECK_VERSION (4, 10, 0)
  GtkFileChooserNative *chooser;
#endif

  GtkButton         *import_button;
  GtkSpinner        *spinner;
  GtkLabel          *file_label;
  GtkEntry          *name_entry;
  GtkLabel          *name_message;
  GtkDropDown       *format_dropdown;
  GtkLabel          *suggestion_label;
  GtkCheckButton    *dither_check;
  GtkCheckButton    *mips_check;
  GtkCheckButton    *drop_alpha_check;
  GtkLabel          *alpha_warning;
  GtkCheckButton    *keep_cells_check;
  GtkWidget         *size_caption;
  GtkWidget         *size_box;
  GtkDropDown       *resize_dropdown;
  GtkLabel          *size_note;
  GtkDrawingArea    *source_area;
  GtkLabel          *source_info;
  GtkStack          *result_stack;
  GtkDrawingArea    *result_area;
  GtkLabel          *refusal_label;
  GtkLabel          *result_info;
};

G_DEFINE_FINAL_TYPE (MatTextureImportDialog, mat_texture_import_dialog, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_FORMAT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_IMPORTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The formats on offer, what each keeps (formats.md 3). */
static const struct {
  guint32     format;
  const char *label;
} format_table[] = {
  { 565,  N_("565 · colour, 16-bit texels") },
  { 556,  N_("556 · colour, 16-bit texels, more blue") },
  { 4444, N_("4444 · colour and alpha, 4 bits each") },
  { 8888, N_("8888 · colour and alpha, 8 bits each") },
  { 888,  N_("888 · colour, 8 bits each") },
  { 88,   N_("88 · grey and alpha") },
  { 0,    N_("0 · a palette of 255 colours") },
};

guint
mat_texture_import_formats (const guint32 **formats)
{
  static guint32 list[G_N_ELEMENTS (format_table)];

  for (guint i = 0; i < G_N_ELEMENTS (format_table); i++)
    list[i] = format_table[i].format;
  if (formats != NULL)
    *formats = list;
  return G_N_ELEMENTS (format_table);
}

static guint32
chosen_format (MatTextureImportDialog *self)
{
  guint i = gtk_drop_down_get_selected (self->format_dropdown);

  return i < G_N_ELEMENTS (format_table) ? format_table[i].format : 565;
}

/* How a picture whose sides are no powers of two is made one (the size
 * drop-down, in its order). */
static const TexmResize resize_table[] = { TEXM_RESIZE_SCALE, TEXM_RESIZE_PAD };

static TexmResize
chosen_resize (MatTextureImportDialog *self)
{
  guint i = gtk_drop_down_get_selected (self->resize_dropdown);

  return i < G_N_ELEMENTS (resize_table) ? resize_table[i] : TEXM_RESIZE_SCALE;
}

static gboolean
format_dithers (guint32 format)
{
  return format == 565 || format == 556 || format == 4444 || format == 0;
}

/* ---- state ------------------------------------------------------------ */

static void
update_busy (MatTextureImportDialog *self)
{
  gboolean busy = self->loading || self->previewing || self->importing;

  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.import",
                                 !busy && self->picture != NULL && self->name_valid &&
                                 self->preview_ok);
  if (busy != self->busy)
    {
      self->busy = busy;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static void
show_refusal (MatTextureImportDialog *self,
              const char             *message)
{
  gtk_label_set_text (self->refusal_label, message);
  gtk_stack_set_visible_child_name (self->result_stack, "refused");
  gtk_label_set_text (self->result_info, "");
  g_clear_pointer (&self->result_surface, cairo_surface_destroy);
  self->preview_ok = FALSE;
}

/* The options the dialog's controls make; @rects receives the cells kept
 * (free it). */
static void
fill_options (MatTextureImportDialog *self,
              TexmEncodeOptions      *options,
              TexmRect              **rects)
{
  guint32 format = chosen_format (self);

  texm_encode_options_init (options, format);
  options->dither = format_dithers (format) && gtk_check_button_get_active (self->dither_check);
  options->drop_alpha = !texm_format_has_alpha (format) &&
                        gtk_check_button_get_active (self->drop_alpha_check);
  options->mip_count = gtk_check_button_get_active (self->mips_check) ? 0 : 1;
  *rects = NULL;
  if (self->target != NULL && gtk_widget_get_visible (GTK_WIDGET (self->keep_cells_check)) &&
      gtk_check_button_get_active (self->keep_cells_check))
    {
      guint n = 0;
      const TexmRect *cells = mat_texture_get_rects (self->target, &n, NULL);

      options->page = TRUE;
      *rects = n > 0 ? g_memdup2 (cells, n * sizeof *cells) : NULL;
      options->rects = *rects;
      options->n_rects = n;
    }
}

/* ---- the preview ------------------------------------------------------ */

typedef struct {
  GdkPixbuf         *picture;
  TexmResize         resize;
  GdkPixbuf         *fitted;     /* the answer: what was encoded */
  TexmEncodeOptions  options;
  TexmRect          *rects;
  guint8            *rgba;       /* the answer */
  TexmEncodeResult   result;
  guint              serial;
} PreviewData;

static void
preview_data_free (gpointer data)
{
  PreviewData *preview = data;

  g_clear_object (&preview->picture);
  g_clear_object (&preview->fitted);
  g_free (preview->rects);
  g_free (preview->rgba);
  g_free (preview);
}

static void
preview_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  PreviewData *preview = task_data;
  GError *error = NULL;

  /* the model's picture code brings it to powers of two, as asked */
  preview->fitted = mat_picture_fit_power_of_two (preview->picture, preview->resize, &error);
  if (preview->fitted == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  preview->rgba = texm_encode_preview (gdk_pixbuf_read_pixels (preview->fitted),
                                       (guint) gdk_pixbuf_get_width (preview->fitted),
                                       (guint) gdk_pixbuf_get_height (preview->fitted),
                                       (gsize) gdk_pixbuf_get_rowstride (preview->fitted),
                                       &preview->options, &preview->result, &error);
  if (preview->rgba == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* How the game will draw the alpha of a texture of @format made here
 * (render.md 2): a texture replaced keeps its flags5, a new one has 0;
 * for the material being edited. */
static TexmDrawAlpha
drawn_alpha (MatTextureImportDialog *self,
             guint32                 format)
{
  const TexmImage *image = self->target != NULL ? mat_texture_get_image (self->target) : NULL;
  guint32 flags5 = image != NULL ? image->header.flags5 : 0;
  guint32 attr1 = self->material != NULL ? mat_material_get_attr1 (self->material) : 0;

  return texm_draw_alpha (format, flags5, attr1, self->emboss_bump);
}

static void
show_result (MatTextureImportDialog *self,
             PreviewData            *preview)
{
  g_autofree char *bytes = NULL;
  g_autofree char *quality = NULL;
  g_autofree char *colours = NULL;
  g_autofree char *text = NULL;
  const TexmEncodeOptions *options = &preview->options;
  guint mips = options->mip_count != 0 ? options->mip_count
                                       : texm_full_mip_count (preview->result.width, preview->result.height);
  gsize size = texm_encoded_size (options->format, preview->result.width, preview->result.height,
                                  mips, options->page, options->n_rects);

  /* in the game: without its alpha where the game ignores it */
  if (texm_draw_alpha_is_opaque (drawn_alpha (self, options->format)))
    for (gsize i = 0; i < (gsize) preview->result.width * preview->result.height; i++)
      preview->rgba[i * 4 + 3] = 255;
  g_clear_pointer (&self->result_surface, cairo_surface_destroy);
  self->result_surface = mat_texture_draw_surface_new (preview->rgba, preview->result.width,
                                                       preview->result.height, 0);
  gtk_stack_set_visible_child_name (self->result_stack, "result");
  gtk_widget_queue_draw (GTK_WIDGET (self->result_area));

  bytes = mat_file_format_count (size);
  if (preview->result.exact)
    quality = g_strdup (_("exact"));
  else
    /* Translators: how far the texture's colours are from the picture's */
    quality = g_strdup_printf (_("largest channel error %u"), preview->result.max_error);
  if (options->format == 0)
    colours = g_strdup_printf (preview->result.quantized
                               /* Translators: palette colours, chosen by libimagequant */
                               ? ngettext ("%u colour, quantized", "%u colours, quantized", preview->result.n_colours)
                               : ngettext ("%u colour", "%u colours", preview->result.n_colours),
                               preview->result.n_colours);
  /* Translators: format, width × height, mip levels, bytes, quality
   * (e.g. "565 · 64×64 · 7 mip levels · 10,922 bytes · exact") */
  text = g_strdup_printf (ngettext ("%u · %u×%u · %u mip level · %s bytes · %s",
                                    "%u · %u×%u · %u mip levels · %s bytes · %s", mips),
                          options->format, preview->result.width, preview->result.height, mips,
                          bytes, quality);
  if (colours != NULL)
    {
      g_autofree char *joined = g_strdup_printf ("%s · %s", text, colours);

      g_free (text);
      text = g_steal_pointer (&joined);
    }
  gtk_label_set_text (self->result_info, text);
  self->preview_ok = TRUE;
}

static void
preview_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (object);
  PreviewData *preview = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;   /* closed meanwhile */
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          preview->serial != self->preview_serial)
        return;
    }
  if (preview->serial != self->preview_serial)
    return;   /* a newer one runs */

  self->previewing = FALSE;
  if (error != NULL)
    show_refusal (self, error->message);
  else
    {
      g_set_object (&self->fitted, preview->fitted);
      show_result (self, preview);
    }
  update_busy (self);
}

static void
schedule_preview (MatTextureImportDialog *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  PreviewData *preview;
  guint w, h;

  self->preview_serial++;
  self->preview_target = self->target;
  if (self->picture == NULL)
    {
      self->previewing = FALSE;
      update_busy (self);
      return;
    }

  w = (guint) gdk_pixbuf_get_width (self->picture);
  h = (guint) gdk_pixbuf_get_height (self->picture);
  /* a size no power of two holds is refused before anything is encoded */
  if (texm_next_power_of_two (w) == 0 || texm_next_power_of_two (h) == 0)
    {
      texm_check_picture_size (w, h, &error);
      self->previewing = FALSE;
      show_refusal (self, error->message);
      update_busy (self);
      return;
    }

  preview = g_new0 (PreviewData, 1);
  preview->picture = g_object_ref (self->picture);
  preview->resize = chosen_resize (self);
  fill_options (self, &preview->options, &preview->rects);
  preview->serial = self->preview_serial;
  self->previewing = TRUE;
  self->preview_ok = FALSE;
  update_busy (self);

  task = g_task_new (self, self->cancellable, preview_done_cb, NULL);
  g_task_set_task_data (task, preview, preview_data_free);
  g_task_run_in_thread (task, preview_thread);
}

/* ---- controls --------------------------------------------------------- */

/* A picture with alpha the game will not draw (render.md 2): the format
 * is no alpha surface (a replaced texture keeps its flags5), or the
 * material being edited is a lit skin and emboss bump is off. */
static void
update_alpha_warning (MatTextureImportDialog *self)
{
  guint32 format = chosen_format (self);
  g_autofree char *text = NULL;
  gboolean dropped = gtk_widget_get_visible (GTK_WIDGET (self->drop_alpha_check))
                     && gtk_check_button_get_active (self->drop_alpha_check);

  if (self->picture != NULL && self->alpha != TEXM_ALPHA_NONE && !dropped)
    switch (drawn_alpha (self, format))
      {
      case TEXM_DRAW_OPAQUE_FORMAT:
        /* Translators: %u is a Texm format (565, 88...) */
        text = g_strdup_printf (_("The game draws %u textures opaque: the picture’s alpha will not show (4444 and 8888 keep it)."),
                                format);
        break;
      case TEXM_DRAW_OPAQUE_LIT_SKIN:
        /* Translators: %s is the name of the material being edited */
        text = g_strdup_printf (_("%s is a lit skin (attr1 bit 1): the game draws its textures opaque, so the picture’s alpha will not show on it unless emboss bump is on."),
                                mat_material_get_name (self->material));
        break;
      case TEXM_DRAW_ALPHA:
      case TEXM_DRAW_ALPHA_INDEX0:
      default:
        break;
      }
  gtk_label_set_text (self->alpha_warning, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->alpha_warning), text != NULL);
}

/* The size row: shown for a picture whose sides are no powers of two,
 * offering to scale it or pad it to the next ones. */
static void
update_size_row (MatTextureImportDialog *self)
{
  guint w = self->picture != NULL ? (guint) gdk_pixbuf_get_width (self->picture) : 0;
  guint h = self->picture != NULL ? (guint) gdk_pixbuf_get_height (self->picture) : 0;
  guint w2 = texm_next_power_of_two (w), h2 = texm_next_power_of_two (h);
  gboolean offer = self->picture != NULL && w2 != 0 && h2 != 0 && (w2 != w || h2 != h);

  gtk_widget_set_visible (self->size_caption, offer);
  gtk_widget_set_visible (self->size_box, offer);
  if (offer)
    {
      g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
      guint selected = gtk_drop_down_get_selected (self->resize_dropdown);
      g_autofree char *scale = NULL;
      g_autofree char *pad = NULL;
      g_autofree char *note = NULL;

      /* Translators: the size a picture is scaled up to, bilinear */
      scale = g_strdup_printf (_("Scale to %u×%u (bilinear)"), w2, h2);
      /* Translators: the size a picture is padded to; the new texels
       * repeat the picture's last column and row */
      pad = g_strdup_printf (_("Pad to %u×%u (edge pixels repeated)"), w2, h2);
      gtk_string_list_append (labels, scale);
      gtk_string_list_append (labels, pad);
      /* the choice made stays: a new model is no new choice */
      self->setting_size = TRUE;
      gtk_drop_down_set_model (self->resize_dropdown, G_LIST_MODEL (labels));
      gtk_drop_down_set_selected (self->resize_dropdown,
                                  selected < G_N_ELEMENTS (resize_table) ? selected : 0);
      self->setting_size = FALSE;
      /* Translators: a picture's size, then the size the game needs */
      note = g_strdup_printf (_("The game takes sides of 1, 2, 4 … 1024 pixels: this picture is %u×%u, "
                                "the texture will be %u×%u."), w, h, w2, h2);
      gtk_label_set_text (self->size_note, note);
    }
}

static void
update_controls (MatTextureImportDialog *self)
{
  guint32 format = chosen_format (self);

  gtk_widget_set_sensitive (GTK_WIDGET (self->dither_check), format_dithers (format));
  /* alpha a format cannot hold: the choice to lose it */
  gtk_widget_set_visible (GTK_WIDGET (self->drop_alpha_check),
                          self->picture != NULL && self->alpha != TEXM_ALPHA_NONE &&
                          !texm_format_has_alpha (format));
  update_alpha_warning (self);
}

static void
option_changed_cb (MatTextureImportDialog *self)
{
  update_controls (self);
  schedule_preview (self);
}

static void
resize_changed_cb (MatTextureImportDialog *self)
{
  if (!self->setting_size)
    option_changed_cb (self);
}

static void
format_changed_cb (MatTextureImportDialog *self)
{
  if (!self->setting_format)
    self->format_chosen = TRUE;
  option_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORMAT]);
}

/* Checks the name as typed: the verdict under the entry, the button's
 * label, the cells a replaced texture can keep. */
static void
name_changed_cb (MatTextureImportDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  g_autoptr(GError) error = NULL;
  MatTexture *existing = NULL;
  guint n_cells = 0;

  if (!self->setting_name)
    self->name_edited = TRUE;

  self->name_valid = mat_texture_library_check_import_name (self->library, name, &existing, &error);
  self->target = self->name_valid ? existing : NULL;
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_message), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_message), "dim-label");
  if (name[0] == '\0')
    {
      gtk_label_set_text (self->name_message,
                          _("At most 15 bytes in the game’s code page (CP1251) with a “.”; the letter and digit after the dot pick the palette of an indexed texture."));
      gtk_widget_add_css_class (GTK_WIDGET (self->name_message), "dim-label");
      gtk_widget_remove_css_class (GTK_WIDGET (self->name_entry), "error");
    }
  else if (!self->name_valid)
    {
      gtk_label_set_text (self->name_message, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->name_message), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->name_entry), "error");
    }
  else
    {
      g_autofree char *text = NULL;

      gtk_widget_remove_css_class (GTK_WIDGET (self->name_entry), "error");
      if (existing != NULL)
        /* Translators: the texture's stored name, its format and size */
        text = g_strdup_printf (_("Replaces the texture %s (%u, %u×%u) in place; its name is kept."),
                                mat_texture_get_name (existing), mat_texture_get_format (existing),
                                mat_texture_get_width (existing), mat_texture_get_height (existing));
      else
        text = g_strdup (_("A new texture, added at the end of Textures.lib."));
      gtk_label_set_text (self->name_message, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->name_message), "dim-label");
    }
  gtk_button_set_label (self->import_button, existing != NULL ? _("_Replace") : _("_Import"));

  if (self->target != NULL)
    mat_texture_get_rects (self->target, &n_cells, NULL);
  if (n_cells > 0)
    {
      g_autofree char *label = g_strdup_printf (ngettext ("_Keep its %u Page cell",
                                                          "_Keep its %u Page cells", n_cells),
                                                n_cells);

      gtk_check_button_set_label (self->keep_cells_check, label);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->keep_cells_check), n_cells > 0);
  /* a replaced texture keeps its flags5, and with it an alpha surface */
  update_alpha_warning (self);

  /* the cells kept change what is encoded */
  if (self->target != self->preview_target)
    schedule_preview (self);
  else
    update_busy (self);
}

static void
name_activate_cb (MatTextureImportDialog *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "import.import", NULL);
}

static void
set_name (MatTextureImportDialog *self,
          const char             *name)
{
  self->setting_name = TRUE;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->name_entry)), name) == 0)
    name_changed_cb (self);   /* checked against the library all the same */
  else
    gtk_editable_set_text (GTK_EDITABLE (self->name_entry), name);
  self->setting_name = FALSE;
}

/* "lava flow.png" -> "LAVA_FLOW.0": the stem in capitals (ASCII), spaces
 * as '_', cut to fit 15 CP1251 bytes with the suffix. */
static char *
name_for_file (GFile *file)
{
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *stem = NULL;
  GString *name = g_string_new (NULL);
  char *dot;

  stem = g_strdup (base != NULL ? base : "TEXTURE");
  dot = strrchr (stem, '.');
  if (dot != NULL && dot != stem)
    *dot = '\0';
  for (const char *p = stem; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      guint8 field[TEXM_NAME_MAX_BYTES + 1];
      gsize before = name->len;

      if (c == ' ' || c == '.')
        c = '_';
      else if (c < 128)
        c = g_ascii_toupper ((char) c);
      g_string_append_unichar (name, c);
      /* the suffix ".0" needs two bytes of the fifteen */
      if (!cp1251_from_utf8 (name->str, field, TEXM_NAME_MAX_BYTES - 1, NULL))
        {
          g_string_truncate (name, before);
          if (cp1251_from_utf8 (name->str, field, TEXM_NAME_MAX_BYTES - 1, NULL) &&
              strlen ((const char *) field) >= TEXM_NAME_MAX_BYTES - 2)
            break;   /* full */
        }
    }
  if (name->len == 0)
    g_string_append (name, "TEXTURE");
  g_string_append (name, ".0");
  return g_string_free (name, FALSE);
}

/* ---- the picture ------------------------------------------------------ */

/* The picture through the model's one reader (mat-picture.h): its kind
 * told from its content, its size from its header before it is
 * decoded. */
static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autofree char *path = NULL;
  GdkPixbuf *picture;
  GError *error = NULL;

  path = mat_file_get_local_path (file, &error);
  picture = path != NULL ? mat_picture_load_path (path, &error) : NULL;
  if (picture == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, picture, g_object_unref);
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (object);
  GFile *file = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) picture = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *info = NULL;
  const char *alpha_text;
  guint w, h;
  gsize stride;
  const guint8 *pixels;

  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable) ||
      file != self->file)
    return;
  self->loading = FALSE;
  g_clear_object (&self->picture);
  g_clear_object (&self->fitted);
  g_clear_pointer (&self->source_surface, cairo_surface_destroy);
  gtk_widget_queue_draw (GTK_WIDGET (self->source_area));

  if (picture == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *text = g_strdup_printf ("%s: %s", name, error->message);

      gtk_label_set_text (self->source_info, "");
      show_refusal (self, text);
      update_size_row (self);
      update_controls (self);
      update_busy (self);
      return;
    }

  self->picture = g_steal_pointer (&picture);
  g_clear_object (&self->fitted);
  update_size_row (self);
  w = (guint) gdk_pixbuf_get_width (self->picture);
  h = (guint) gdk_pixbuf_get_height (self->picture);
  stride = (gsize) gdk_pixbuf_get_rowstride (self->picture);
  pixels = gdk_pixbuf_read_pixels (self->picture);
  self->alpha = texm_picture_alpha (pixels, w, h, stride);
  self->suggested = texm_suggest_format (pixels, w, h, stride);
  self->source_surface = mat_texture_draw_surface_new (pixels, w, h, stride);

  switch (self->alpha)
    {
    case TEXM_ALPHA_NONE:
      alpha_text = _("opaque");
      break;
    case TEXM_ALPHA_BINARY:
      alpha_text = _("alpha 0 and 255 only");
      break;
    case TEXM_ALPHA_GRADED:
    default:
      alpha_text = _("graded alpha");
      break;
    }
  /* Translators: the picture's width × height, then its kind of alpha */
  info = g_strdup_printf (_("%u×%u · %s"), w, h, alpha_text);
  gtk_label_set_text (self->source_info, info);
  {
    g_autofree char *text = g_strdup_printf (_("Suggested for this picture: %u"), self->suggested);

    gtk_label_set_text (self->suggestion_label, text);
  }

  if (!self->name_edited)
    {
      g_autofree char *name = name_for_file (file);

      set_name (self, name);
    }
  /* the suggestion, unless the user chose already */
  if (!self->format_chosen)
    {
      self->setting_format = TRUE;
      mat_texture_import_dialog_set_format (self, self->suggested);
      self->setting_format = FALSE;
    }
  update_controls (self);
  schedule_preview (self);
}

void
mat_texture_import_dialog_set_file (MatTextureImportDialog *self,
                                    GFile                  *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (MAT_IS_TEXTURE_IMPORT_DIALOG (self));
  g_return_if_fail (G_IS_FILE (file));

  g_set_object (&self->file, file);
  name = g_file_get_parse_name (file);
  gtk_label_set_text (self->file_label, name);
  mat_tooltip_set_text (GTK_WIDGET (self->file_label), name);
  self->loading = TRUE;
  update_busy (self);

  task = g_task_new (self, self->cancellable, load_done_cb, NULL);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

/* ---- drawing ---------------------------------------------------------- */

static void
draw_source (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  MatTextureImportDialog *self = user_data;

  mat_texture_draw_fit (cr, self->source_surface, width, height);
}

static void
draw_result (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  MatTextureImportDialog *self = user_data;

  mat_texture_draw_fit (cr, self->result_surface, width, height);
}

/* ---- actions ---------------------------------------------------------- */

static void
import_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(MatTextureImportDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatTexture) texture = NULL;

  texture = mat_texture_library_import_finish (MAT_TEXTURE_LIBRARY (object), result, NULL, &error);
  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;   /* closed meanwhile */
  self->importing = FALSE;
  if (texture == NULL)
    {
      show_refusal (self, error->message);
      update_busy (self);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_IMPORTED], 0, texture);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (widget);
  g_autofree TexmRect *rects = NULL;
  g_autoptr(GBytes) pixels = NULL;
  TexmEncodeOptions options;

  /* the picture as the preview showed it: the preview runs again after
   * every change, and the import waits for it */
  if (self->picture == NULL || self->fitted == NULL || self->busy || !self->preview_ok)
    return;
  fill_options (self, &options, &rects);
  pixels = gdk_pixbuf_read_pixel_bytes (self->fitted);
  self->importing = TRUE;
  update_busy (self);
  mat_texture_library_import_async (self->library,
                                    gtk_editable_get_text (GTK_EDITABLE (self->name_entry)),
                                    pixels,
                                    (guint) gdk_pixbuf_get_width (self->fitted),
                                    (guint) gdk_pixbuf_get_height (self->fitted),
                                    (gsize) gdk_pixbuf_get_rowstride (self->fitted),
                                    &options, self->cancellable, import_done_cb,
                                    g_object_ref (self));
}

static GtkFileFilter *
picture_filter_new (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  static const char *const suffixes[] = { "png", "jpg", "jpeg", "bmp", "tga" };
  static const char *const types[] = { "image/png", "image/jpeg", "image/bmp", "image/x-tga" };

  gtk_file_filter_set_name (filter, _("Pictures (PNG, JPEG, BMP, TGA)"));
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    gtk_file_filter_add_suffix (filter, suffixes[i]);
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    gtk_file_filter_add_mime_type (filter, types[i]);
  return filter;
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
choose_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(MatTextureImportDialog) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (source), result, NULL);

  if (file != NULL)
    mat_texture_import_dialog_set_file (self, file);
}

static void
choose_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (widget);
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) filter = picture_filter_new ();

  g_list_store_append (filters, filter);
  gtk_file_dialog_set_title (dialog, _("Choose a Picture"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_default_filter (dialog, filter);
  gtk_file_dialog_open (dialog, GTK_WINDOW (self), NULL, choose_done_cb, g_object_ref (self));
}
#else
static void
chooser_response_cb (GtkNativeDialog        *chooser,
                     int                     response,
                     MatTextureImportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        mat_texture_import_dialog_set_file (self, file);
    }
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
}

static void
choose_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (widget);
  g_autoptr(GtkFileFilter) filter = picture_filter_new ();

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose a Picture"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}
#endif

/* ---- GObject ---------------------------------------------------------- */

static void
mat_texture_import_dialog_dispose (GObject *object)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
#if !GTK_CHECK_VERSION (4, 10, 0)
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
#endif
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_TEXTURE_IMPORT_DIALOG);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->library);
  g_clear_object (&self->material);
  g_clear_object (&self->file);
  g_clear_object (&self->picture);
  g_clear_object (&self->fitted);
  g_clear_pointer (&self->source_surface, cairo_surface_destroy);
  g_clear_pointer (&self->result_surface, cairo_surface_destroy);

  G_OBJECT_CLASS (mat_texture_import_dialog_parent_class)->dispose (object);
}

static void
mat_texture_import_dialog_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_FORMAT:
      g_value_set_uint (value, chosen_format (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_import_dialog_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  MatTextureImportDialog *self = MAT_TEXTURE_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_FORMAT:
      mat_texture_import_dialog_set_format (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_import_dialog_class_init (MatTextureImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_texture_import_dialog_dispose;
  object_class->get_property = mat_texture_import_dialog_get_property;
  object_class->set_property = mat_texture_import_dialog_set_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FORMAT] =
    g_param_spec_uint ("format", NULL, NULL, 0, G_MAXUINT32, 565,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatTextureImportDialog::imported:
   * @texture: the texture added or replaced
   */
  signals[SIGNAL_IMPORTED] =
    g_signal_new ("imported", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, MAT_TYPE_TEXTURE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-texture-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, import_button);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, file_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, name_entry);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, name_message);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, format_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, suggestion_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, dither_check);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, mips_check);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, drop_alpha_check);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, alpha_warning);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, keep_cells_check);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, size_caption);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, size_box);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, resize_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, size_note);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, source_area);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, source_info);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, result_stack);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, result_area);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, refusal_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureImportDialog, result_info);

  gtk_widget_class_install_action (widget_class, "import.import", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "import.choose", NULL, choose_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
mat_texture_import_dialog_init (MatTextureImportDialog *self)
{
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();

  for (guint i = 0; i < G_N_ELEMENTS (format_table); i++)
    gtk_string_list_append (labels, _(format_table[i].label));
  gtk_drop_down_set_model (self->format_dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->format_dropdown, 0);

  gtk_drawing_area_set_draw_func (self->source_area, draw_source, self, NULL);
  gtk_drawing_area_set_draw_func (self->result_area, draw_result, self, NULL);
  gtk_label_set_text (self->file_label, _("No picture chosen yet"));
  /* nothing chosen yet: the neutral placeholder, not the refusal */
  gtk_stack_set_visible_child_name (self->result_stack, "empty");
  gtk_widget_set_visible (GTK_WIDGET (self->keep_cells_check), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->drop_alpha_check), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  gtk_button_set_label (self->import_button, _("_Import"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.import", FALSE);

  g_signal_connect_swapped (self->name_entry, "changed", G_CALLBACK (name_changed_cb), self);
  g_signal_connect_swapped (self->name_entry, "activate", G_CALLBACK (name_activate_cb), self);
  g_signal_connect_swapped (self->format_dropdown, "notify::selected",
                            G_CALLBACK (format_changed_cb), self);
  g_signal_connect_swapped (self->dither_check, "toggled", G_CALLBACK (option_changed_cb), self);
  g_signal_connect_swapped (self->mips_check, "toggled", G_CALLBACK (option_changed_cb), self);
  g_signal_connect_swapped (self->drop_alpha_check, "toggled", G_CALLBACK (option_changed_cb), self);
  g_signal_connect_swapped (self->keep_cells_check, "toggled", G_CALLBACK (option_changed_cb), self);
  g_signal_connect_swapped (self->resize_dropdown, "notify::selected", G_CALLBACK (resize_changed_cb), self);
}

MatTextureImportDialog *
mat_texture_import_dialog_new (GtkWindow         *parent,
                               MatTextureLibrary *library,
                               MatTexture        *replace)
{
  MatTextureImportDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (library), NULL);
  g_return_val_if_fail (replace == NULL || MAT_IS_TEXTURE (replace), NULL);

  self = g_object_new (MAT_TYPE_TEXTURE_IMPORT_DIALOG, "transient-for", parent, NULL);
  self->library = g_object_ref (library);
  if (replace != NULL)
    {
      set_name (self, mat_texture_get_name (replace));
      /* a texture to replace keeps its name whatever the picture's file */
      self->name_edited = TRUE;
      gtk_check_button_set_active (self->mips_check, mat_texture_get_mip_count (replace) != 1);
    }
  else
    set_name (self, "");
  if (replace != NULL)
    gtk_window_set_title (GTK_WINDOW (self), _("Replace Texture"));
  return self;
}

gboolean
mat_texture_import_dialog_get_busy (MatTextureImportDialog *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_IMPORT_DIALOG (self), FALSE);
  return self->busy;
}

guint32
mat_texture_import_dialog_get_format (MatTextureImportDialog *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_IMPORT_DIALOG (self), 0);
  return chosen_format (self);
}

void
mat_texture_import_dialog_set_format (MatTextureImportDialog *self,
                                      guint32                 format)
{
  g_return_if_fail (MAT_IS_TEXTURE_IMPORT_DIALOG (self));

  for (guint i = 0; i < G_N_ELEMENTS (format_table); i++)
    if (format_table[i].format == format)
      gtk_drop_down_set_selected (self->format_dropdown, i);
}

void
mat_texture_import_dialog_set_material (MatTextureImportDialog *self,
                                        MatMaterial            *material,
                                        gboolean                emboss_bump)
{
  g_return_if_fail (MAT_IS_TEXTURE_IMPORT_DIALOG (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  g_set_object (&self->material, material);
  self->emboss_bump = !!emboss_bump;
  update_alpha_warning (self);
  schedule_preview (self);
}
