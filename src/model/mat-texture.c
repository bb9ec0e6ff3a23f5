/* mat-texture.c - one Texm texture of a texture library */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat-texture.h"
#include "texm-alpha.h"

/* Pixels decoded at a time by a reduction. */
#define RUN_PIXELS 4096

/* A reduction kept: of level @level to @width x @height. */
typedef struct {
  GBytes *rgba;
  guint   level;
  guint   width;
  guint   height;
} Fitted;

struct _MatTexture
{
  GObject    parent_instance;

  char      *name;
  GBytes    *payload;
  TexmImage *image;     /* NULL when the payload does not parse */
  char      *error;
  GBytes    *rgba0;     /* level 0, decoded on first use */
  Fitted     fitted[2]; /* the last two reductions, the newest first */
  gboolean   average_known;
  gboolean   has_average;
  guint8     average[4];
  gboolean   alpha_known;   /* has_alpha computed */
  gboolean   has_alpha;
};

G_DEFINE_FINAL_TYPE (MatTexture, mat_texture, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_FORMAT,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_MIP_COUNT,
  PROP_PAGE_RECTS,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
clear_fitted (MatTexture *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->fitted); i++)
    g_clear_pointer (&self->fitted[i].rgba, g_bytes_unref);
}

static void
mat_texture_finalize (GObject *object)
{
  MatTexture *self = MAT_TEXTURE (object);

  g_free (self->name);
  g_clear_pointer (&self->payload, g_bytes_unref);
  g_clear_pointer (&self->image, texm_image_free);
  g_free (self->error);
  g_clear_pointer (&self->rgba0, g_bytes_unref);
  clear_fitted (self);

  G_OBJECT_CLASS (mat_texture_parent_class)->finalize (object);
}

static void
mat_texture_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  MatTexture *self = MAT_TEXTURE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_FORMAT:
      g_value_set_uint (value, mat_texture_get_format (self));
      break;
    case PROP_WIDTH:
      g_value_set_uint (value, mat_texture_get_width (self));
      break;
    case PROP_HEIGHT:
      g_value_set_uint (value, mat_texture_get_height (self));
      break;
    case PROP_MIP_COUNT:
      g_value_set_uint (value, mat_texture_get_mip_count (self));
      break;
    case PROP_PAGE_RECTS:
      g_value_set_uint (value, mat_texture_get_page_rects (self));
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_class_init (MatTextureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = mat_texture_finalize;
  object_class->get_property = mat_texture_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_FORMAT] = g_param_spec_uint ("format", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_WIDTH] = g_param_spec_uint ("width", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_HEIGHT] = g_param_spec_uint ("height", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_MIP_COUNT] = g_param_spec_uint ("mip-count", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_PAGE_RECTS] = g_param_spec_uint ("page-rects", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatTexture::changed:
   *
   * The payload was replaced: the pixels, the size or the Page
   * rectangles may differ.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_texture_init (MatTexture *self)
{
}

MatTexture *
_mat_texture_new (const char *name,
                  GBytes     *payload,
                  gsize       base_offset)
{
  MatTexture *self = g_object_new (MAT_TYPE_TEXTURE, NULL);
  g_autoptr(GError) error = NULL;

  self->name = g_strdup (name);
  self->payload = g_bytes_ref (payload);
  self->image = texm_parse (payload, name, base_offset, &error);
  if (self->image == NULL)
    self->error = g_strdup (error->message);
  return self;
}

void
_mat_texture_set_payload (MatTexture *self,
                          GBytes     *payload,
                          gsize       base_offset)
{
  g_autoptr(GError) error = NULL;
  guint before[5], after[5];
  const guint props[5] = { PROP_FORMAT, PROP_WIDTH, PROP_HEIGHT, PROP_MIP_COUNT, PROP_PAGE_RECTS };
  g_autofree char *old_error = NULL;

  g_return_if_fail (MAT_IS_TEXTURE (self));
  g_return_if_fail (payload != NULL);

  before[0] = mat_texture_get_format (self);
  before[1] = mat_texture_get_width (self);
  before[2] = mat_texture_get_height (self);
  before[3] = mat_texture_get_mip_count (self);
  before[4] = mat_texture_get_page_rects (self);
  old_error = g_steal_pointer (&self->error);

  g_clear_pointer (&self->image, texm_image_free);
  g_clear_pointer (&self->rgba0, g_bytes_unref);
  clear_fitted (self);
  self->average_known = FALSE;
  self->has_average = FALSE;
  self->alpha_known = FALSE;
  g_bytes_ref (payload);
  g_clear_pointer (&self->payload, g_bytes_unref);
  self->payload = payload;
  self->image = texm_parse (payload, self->name, base_offset, &error);
  if (self->image == NULL)
    self->error = g_strdup (error->message);

  after[0] = mat_texture_get_format (self);
  after[1] = mat_texture_get_width (self);
  after[2] = mat_texture_get_height (self);
  after[3] = mat_texture_get_mip_count (self);
  after[4] = mat_texture_get_page_rects (self);

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    if (before[i] != after[i])
      g_object_notify_by_pspec (G_OBJECT (self), properties[props[i]]);
  if (g_strcmp0 (old_error, self->error) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

void
_mat_texture_set_name (MatTexture *self,
                       const char *name)
{
  g_return_if_fail (MAT_IS_TEXTURE (self));
  g_return_if_fail (name != NULL);

  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
  g_signal_emit (self, signals[CHANGED], 0);
}

const char *
mat_texture_get_name (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->name;
}

guint
mat_texture_get_format (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.format : 0;
}

guint
mat_texture_get_width (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.width : 0;
}

guint
mat_texture_get_height (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.height : 0;
}

guint
mat_texture_get_mip_count (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.mip_count : 0;
}

guint
mat_texture_get_page_rects (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL && self->image->has_page ? self->image->n_rects : 0;
}

const TexmRect *
mat_texture_get_rects (MatTexture *self,
                       guint      *n_rects,
                       gboolean   *has_page)
{
  gboolean page;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  page = self->image != NULL && self->image->has_page;
  if (has_page != NULL)
    *has_page = page;
  if (n_rects != NULL)
    *n_rects = page ? self->image->n_rects : 0;
  return page ? self->image->rects : NULL;
}

GBytes *
mat_texture_get_payload (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->payload;
}

const char *
mat_texture_get_error (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->error;
}

const TexmImage *
mat_texture_get_image (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->image;
}

GBytes *
mat_texture_dup_rgba (MatTexture *self,
                      guint       level,
                      guint      *width,
                      guint      *height)
{
  guint w, h;
  guint8 *pixels;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  if (self->image == NULL || level >= self->image->header.mip_count)
    return NULL;

  texm_mip_size (self->image, level, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;

  if (level == 0 && self->rgba0 != NULL)
    return g_bytes_ref (self->rgba0);

  pixels = texm_decode_rgba (self->image, level, NULL, NULL);
  if (pixels == NULL)
    return NULL;
  if (level > 0)
    return g_bytes_new_take (pixels, (gsize) w * h * 4);
  self->rgba0 = g_bytes_new_take (pixels, (gsize) w * h * 4);
  return g_bytes_ref (self->rgba0);
}

/* The rounded mean of each channel over each @fx x @fy box of mip
 * @level, read RUN_PIXELS at a time: only the result and one row of sums
 * are held. Returns: (transfer full) (nullable): @out_w x @out_h pixels. */
static guint8 *
reduce_level (const TexmImage *image,
              guint            level,
              guint            fx,
              guint            fy,
              guint           *out_w,
              guint           *out_h)
{
  g_autofree guint64 *sums = NULL;
  g_autofree guint8 *run = NULL;
  g_autofree guint8 *out = NULL;
  guint w, h, ow, oh;

  texm_mip_size (image, level, &w, &h);
  ow = (w + fx - 1) / fx;
  oh = (h + fy - 1) / fy;
  out = g_malloc ((gsize) ow * oh * 4);
  sums = g_new (guint64, (gsize) ow * 4);
  run = g_malloc (RUN_PIXELS * 4);

  for (guint oy = 0; oy < oh; oy++)
    {
      guint y0 = oy * fy;
      guint y1 = MIN (h, y0 + fy);

      memset (sums, 0, sizeof (guint64) * ow * 4);
      for (guint y = y0; y < y1; y++)
        for (guint x0 = 0; x0 < w; x0 += RUN_PIXELS)
          {
            guint n = MIN (RUN_PIXELS, w - x0);

            if (!texm_decode_rgba_run (image, level, (guint64) y * w + x0, n, run))
              return NULL;
            for (guint i = 0; i < n; i++)
              {
                guint64 *sum = sums + (gsize) ((x0 + i) / fx) * 4;

                for (guint c = 0; c < 4; c++)
                  sum[c] += run[i * 4 + c];
              }
          }
      for (guint ox = 0; ox < ow; ox++)
        {
          guint64 count = (guint64) (MIN (w, (ox + 1) * fx) - ox * fx) * (y1 - y0);
          guint8 *o = out + ((gsize) oy * ow + ox) * 4;

          for (guint c = 0; c < 4; c++)
            o[c] = (guint8) ((sums[(gsize) ox * 4 + c] + count / 2) / count);
        }
    }
  *out_w = ow;
  *out_h = oh;
  return g_steal_pointer (&out);
}

MatTextureFit
mat_texture_get_fit (MatTexture *self,
                     guint       level,
                     guint       max_side,
                     guint      *source_level,
                     guint      *width,
                     guint      *height)
{
  guint n, w, h, last;
  MatTextureFit fit = MAT_TEXTURE_FIT_NONE;
  guint from = 0, fw = 0, fh = 0;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), MAT_TEXTURE_FIT_NONE);

  max_side = CLAMP (max_side, 1, MAT_TEXTURE_MAX_SHOWN_SIDE);
  n = self->image != NULL ? self->image->header.mip_count : 0;
  for (guint l = level; l < n && fit == MAT_TEXTURE_FIT_NONE; l++)
    {
      texm_mip_size (self->image, l, &w, &h);
      if (w <= max_side && h <= max_side)
        {
          fit = l == level ? MAT_TEXTURE_FIT_AS_IS : MAT_TEXTURE_FIT_SMALLER;
          from = l;
          fw = w;
          fh = h;
        }
    }
  if (fit == MAT_TEXTURE_FIT_NONE && level < n)
    {
      last = n - 1;
      texm_mip_size (self->image, last, &w, &h);
      if ((guint64) w * h > MAT_TEXTURE_MAX_READ_PIXELS)
        fit = MAT_TEXTURE_FIT_TOO_LARGE;
      else
        {
          guint fx = (w + max_side - 1) / max_side;
          guint fy = (h + max_side - 1) / max_side;

          fit = MAT_TEXTURE_FIT_REDUCED;
          from = last;
          fw = (w + fx - 1) / fx;
          fh = (h + fy - 1) / fy;
        }
    }

  if (source_level != NULL)
    *source_level = from;
  if (width != NULL)
    *width = fw;
  if (height != NULL)
    *height = fh;
  return fit;
}

GBytes *
mat_texture_dup_rgba_fitted (MatTexture    *self,
                             guint          level,
                             guint          max_side,
                             guint         *width,
                             guint         *height,
                             MatTextureFit *fit)
{
  MatTextureFit how;
  guint from = 0, w = 0, h = 0, sw, sh, rw = 0, rh = 0;
  Fitted made;
  guint8 *pixels;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  how = mat_texture_get_fit (self, level, max_side, &from, &w, &h);
  if (fit != NULL)
    *fit = how;
  if (width != NULL)
    *width = 0;
  if (height != NULL)
    *height = 0;

  if (how == MAT_TEXTURE_FIT_NONE || how == MAT_TEXTURE_FIT_TOO_LARGE)
    return NULL;
  if (how != MAT_TEXTURE_FIT_REDUCED)
    return mat_texture_dup_rgba (self, from, width, height);

  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
  for (guint i = 0; i < G_N_ELEMENTS (self->fitted); i++)
    if (self->fitted[i].rgba != NULL && self->fitted[i].level == from &&
        self->fitted[i].width == w && self->fitted[i].height == h)
      return g_bytes_ref (self->fitted[i].rgba);

  texm_mip_size (self->image, from, &sw, &sh);
  pixels = reduce_level (self->image, from, (sw + w - 1) / w, (sh + h - 1) / h, &rw, &rh);
  if (pixels == NULL)
    return NULL;
  g_warn_if_fail (rw == w && rh == h);

  made.rgba = g_bytes_new_take (pixels, (gsize) rw * rh * 4);
  made.level = from;
  made.width = rw;
  made.height = rh;
  g_clear_pointer (&self->fitted[G_N_ELEMENTS (self->fitted) - 1].rgba, g_bytes_unref);
  memmove (&self->fitted[1], &self->fitted[0], sizeof (Fitted) * (G_N_ELEMENTS (self->fitted) - 1));
  self->fitted[0] = made;
  return g_bytes_ref (made.rgba);
}

char *
mat_texture_dup_fit_note (MatTexture    *self,
                          MatTextureFit  fit,
                          guint          width,
                          guint          height)
{
  guint tw, th;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  tw = mat_texture_get_width (self);
  th = mat_texture_get_height (self);
  switch (fit)
    {
    case MAT_TEXTURE_FIT_TOO_LARGE:
      /* Translators: a texture's width and height */
      return g_strdup_printf (_("Too large to show: %u × %u"), tw, th);
    case MAT_TEXTURE_FIT_SMALLER:
    case MAT_TEXTURE_FIT_REDUCED:
      /* Translators: a texture's width and height, then the size it is shown at */
      return g_strdup_printf (_("Too large to show as it is: %u × %u, shown at %u × %u"),
                              tw, th, width, height);
    case MAT_TEXTURE_FIT_NONE:
    case MAT_TEXTURE_FIT_AS_IS:
    default:
      return NULL;
    }
}

gboolean
mat_texture_get_average (MatTexture *self,
                         guint8      rgba[4])
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (!self->average_known)
    {
      g_autofree guint8 *mean = NULL;
      guint last, width = 0, height = 0, ow = 0, oh = 0;

      self->average_known = TRUE;
      memset (self->average, 0, sizeof self->average);
      if (self->image != NULL && self->image->header.mip_count > 0)
        {
          last = self->image->header.mip_count - 1;
          texm_mip_size (self->image, last, &width, &height);
          /* the whole level as one box */
          if ((guint64) width * height <= MAT_TEXTURE_MAX_READ_PIXELS)
            mean = reduce_level (self->image, last, width, height, &ow, &oh);
        }
      if (mean != NULL)
        {
          memcpy (self->average, mean, sizeof self->average);
          self->has_average = TRUE;
        }
    }
  memcpy (rgba, self->average, sizeof self->average);
  return self->has_average;
}

TexmDrawAlpha
mat_texture_draw_alpha (MatTexture *self,
                        guint32     attr1,
                        gboolean    emboss_bump)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), TEXM_DRAW_ALPHA);

  if (self->image == NULL)
    return TEXM_DRAW_ALPHA;
  return texm_draw_alpha (self->image->header.format, self->image->header.flags5, attr1,
                          emboss_bump);
}

gboolean
mat_texture_has_alpha (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), FALSE);

  if (!self->alpha_known)
    {
      self->alpha_known = TRUE;
      self->has_alpha = self->image != NULL && texm_image_has_alpha (self->image);
    }
  return self->has_alpha;
}

GBytes *
mat_texture_dup_drawn_rgba (MatTexture    *self,
                            guint          level,
                            guint          max_side,
                            TexmDrawAlpha  how,
                            guint         *width,
                            guint         *height)
{
  g_autoptr(GBytes) rgba = NULL;
  MatTextureFit fit = MAT_TEXTURE_FIT_NONE;
  guint w = 0, h = 0, from = level;
  guint8 *copy;
  gsize size;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  rgba = mat_texture_dup_rgba_fitted (self, level, max_side, &w, &h, &fit);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
  if (rgba == NULL || how == TEXM_DRAW_ALPHA
      || (how == TEXM_DRAW_ALPHA_INDEX0 && self->image->header.format != 0))
    return g_steal_pointer (&rgba);
  /* opaque: nothing to change when the texture has no alpha stored */
  if (texm_draw_alpha_is_opaque (how) && fit != MAT_TEXTURE_FIT_REDUCED
      && self->image->header.format != 0 && !mat_texture_has_alpha (self))
    return g_steal_pointer (&rgba);

  copy = g_bytes_unref_to_data (g_steal_pointer (&rgba), &size);
  g_return_val_if_fail (size >= (gsize) w * h * 4, (g_free (copy), NULL));
  if (fit == MAT_TEXTURE_FIT_REDUCED)
    {
      /* box-filtered pixels have no palette indices left: an opaque case
       * is made opaque, a keyed one keeps the reduction's alpha */
      if (texm_draw_alpha_is_opaque (how))
        for (gsize i = 0; i < (gsize) w * h; i++)
          copy[i * 4 + 3] = 255;
    }
  else
    {
      mat_texture_get_fit (self, level, max_side, &from, NULL, NULL);
      texm_apply_draw_alpha (self->image, from, how, copy);
    }
  return g_bytes_new_take (copy, size);
}

gboolean
mat_texture_get_drawn_average (MatTexture    *self,
                               TexmDrawAlpha  how,
                               guint8         rgba[4])
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (!mat_texture_get_average (self, rgba))
    return FALSE;
  if (texm_draw_alpha_is_opaque (how))
    rgba[3] = 255;
  else if (how == TEXM_DRAW_ALPHA_INDEX0 && self->image->header.format == 0)
    {
      g_autoptr(GBytes) pixels = NULL;
      guint level = self->image->header.mip_count - 1, w = 0, h = 0;
      guint64 sum = 0, n;

      pixels = mat_texture_dup_drawn_rgba (self, level, MAT_TEXTURE_MAX_SHOWN_SIDE, how, &w, &h);
      if (pixels == NULL || w == 0 || h == 0)
        return TRUE;
      n = (guint64) w * h;
      for (guint64 i = 0; i < n; i++)
        sum += ((const guint8 *) g_bytes_get_data (pixels, NULL))[i * 4 + 3];
      rgba[3] = (guint8) ((sum + n / 2) / n);
    }
  return TRUE;
}
