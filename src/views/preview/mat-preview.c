/* mat-preview.c - live GL preview of a material, driven by the evaluator
 *
 * A GtkGLArea (OpenGL 3.3 core, OpenGL ES 3.0 as the fallback, with a
 * depth buffer) shows what MatPreviewRenderer draws: a sphere, a cube or
 * a plane over the chosen background, the material as the game draws it
 * (render.md), from ONE phase_eval_at_time() per frame: the material's
 * expanded phases (phase_eval_expand_material on mat_material_dup_core,
 * redone when the material changes) and the chosen block, time and
 * random offset. The blend mode comes from attr1; the texture and its
 * cell from the evaluated phase (phase A's).
 *
 * The time comes from a MatPlayback: the preview's own (ticked by its
 * frame clock) or one it shares with other views (the comparison's two
 * sides). While a mode-3 block plays, every new frame time draws a new
 * R from the preview's seeded generator, as the engine draws a fresh
 * rand () at every evaluation.
 *
 * Nothing is redrawn unless something changed or the animation plays;
 * the shape rotates slowly only while playing, so a paused frame is
 * stable.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "mat0.h"
#include "mat0-fields.h"
#include "mat-application.h"
#include "mat-dialogs.h"
#include "mat-preview-private.h"
#include "mat-style.h"
#include "mat-drop-down.h"
#include "mat-tooltip.h"

#define RESOURCE_PREFIX "/io/github/parkan/MatEdit/"

/* Degrees per millisecond of real time while playing. */
#define ROTATION_SPEED  0.02
#define REROLL_SEED     0x5EED1234u
#define CAPTURE_TIMEOUT_US (5 * G_USEC_PER_SEC)
/* While playing, the time readout changes at most this often (µs). */
#define READOUT_INTERVAL_US (G_USEC_PER_SEC / 10)
/* Dragging turns the shape this many degrees per pixel; each step of the
 * wheel zooms by this factor. */
#define DRAG_DEGREES_PER_PX 0.5
#define ZOOM_STEP           1.1
/* OpenGL starts once the window has painted this many frames. */
#define START_AFTER_FRAMES  2
/* A block of more keys than this gets no mark per key under the time
 * scale (see sync_marks). */
#define MAX_TIME_MARKS      256

struct _MatPreview
{
  GtkWidget          parent_instance;

  /* what is shown */
  MatMaterial       *material;
  MatTextureLibrary *textures;
  GSignalGroup      *material_signals;
  GSignalGroup      *phases_signals;
  GSignalGroup      *blocks_signals;
  int                block;
  guint              phase;
  guint32            time_offset;
  guint32            random_offset;
  gboolean           unlit;
  gboolean           emboss_bump;     /* the game's EMBOSS_BUMP setting */
  MatPreviewShape    shape;
  MatPreviewBackground background;
  GdkRGBA            scene;
  gboolean           show_controls;

  /* the user's view: turned by dragging, zoomed by scrolling */
  double             yaw;             /* degrees */
  double             pitch;           /* degrees, -90..90 */
  double             zoom;
  double             drag_yaw;        /* at the start of the drag */
  double             drag_pitch;

  /* the clock */
  MatPlayback       *playback;
  gboolean           owns_playback;
  GSignalGroup      *playback_signals;
  double             rotation;        /* degrees */
  gint64             last_readout;
  GRand             *rand;

  /* settings (when rooted in the application's window) */
  GSettings         *settings;

  /* the evaluator's input, re-expanded when the material changes */
  Mat0Material      *core;
  PhaseRuntime      *runtime;
  gboolean           core_valid;
  /* the last evaluation */
  PhaseEvalResult    eval;
  gboolean           eval_valid;
  gboolean           have_eval;
  char              *texture_name;   /* of the evaluated phase A, or NULL */
  guint64            n_evaluations;

  /* GL, valid between realize and unrealize */
  MatPreviewRenderer *renderer;
  gboolean           gl_started;      /* the GL area is shown (it realizes) */
  GdkFrameClock     *start_clock;     /* a ref while waiting to start GL */
  gulong             start_handler;
  guint              start_paints;
  guint              start_source;
  gboolean           gl_ready;
  char              *error;
  guint64            n_renders;

  /* read-back for tests */
  gboolean           capture_pending;
  GBytes            *capture;
  int                capture_width;
  int                capture_height;

  gboolean           syncing;
  GtkOrientation     orientation;     /* the view above / beside the controls */

  /* template */
  GtkStack          *view_stack;
  GtkGLArea         *gl_area;
  GtkLabel          *error_label;
  GtkWidget         *controls;
  GtkToggleButton   *play_button;
  GtkToggleButton   *loop_button;
  GtkScale          *time_scale;
  GtkAdjustment     *time_adjustment;
  GtkLabel          *time_label;
  MatDropDown       *block_dropdown;
  GtkSpinButton     *phase_spin;
  GtkAdjustment     *phase_adjustment;
  GtkButton         *reroll_button;
  MatDropDown       *shape_dropdown;
  GtkToggleButton   *unlit_button;
  GtkSpinButton     *speed_spin;
  GtkAdjustment     *speed_adjustment;
  MatDropDown       *background_dropdown;
  GtkWidget         *scene_box;
  GtkWidget         *scene_button;    /* made in code: the 4.8 / 4.10 colour button */
  GtkWidget         *time_readout;    /* the label and its ghost */
  GtkLabel          *blend_label;
  GtkLabel          *texture_label;
};

/* The controls' width when they stand beside the view. */
#define CONTROLS_WIDTH 300

G_DEFINE_FINAL_TYPE_WITH_CODE (MatPreview, mat_preview, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_ORIENTABLE, NULL))

enum {
  PROP_0,
  PROP_MATERIAL,
  PROP_BLOCK,
  PROP_PHASE,
  PROP_TIME,
  PROP_TIME_OFFSET,
  PROP_RANDOM_OFFSET,
  PROP_PLAYING,
  PROP_LOOP,
  PROP_SPEED,
  PROP_PLAYBACK,
  PROP_UNLIT,
  PROP_EMBOSS_BUMP,
  PROP_SHAPE,
  PROP_BACKGROUND,
  PROP_SCENE_COLOUR,
  PROP_TEXTURES,
  PROP_SHOW_CONTROLS,
  PROP_YAW,
  PROP_PITCH,
  PROP_ZOOM,
  N_PROPS,
  /* GtkOrientable's, not in properties[] */
  PROP_ORIENTATION = N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
mat_preview_shape_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { MAT_PREVIEW_SHAPE_SPHERE, "MAT_PREVIEW_SHAPE_SPHERE", "sphere" },
        { MAT_PREVIEW_SHAPE_CUBE, "MAT_PREVIEW_SHAPE_CUBE", "cube" },
        { MAT_PREVIEW_SHAPE_PLANE, "MAT_PREVIEW_SHAPE_PLANE", "plane" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("MatPreviewShape"), values);

      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

/* The nicks are the choices of the setting preview-background. */
GType
mat_preview_background_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { MAT_PREVIEW_BACKGROUND_CHECKERBOARD, "MAT_PREVIEW_BACKGROUND_CHECKERBOARD", "checkerboard" },
        { MAT_PREVIEW_BACKGROUND_BLACK, "MAT_PREVIEW_BACKGROUND_BLACK", "black" },
        { MAT_PREVIEW_BACKGROUND_SCENE, "MAT_PREVIEW_BACKGROUND_SCENE", "scene" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("MatPreviewBackground"), values);

      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

static void queue_render (MatPreview *self);

/* ---- the evaluator's input ------------------------------------------- */

static void
ensure_core (MatPreview *self)
{
  if (self->core_valid)
    return;
  self->core_valid = TRUE;
  g_clear_pointer (&self->core, mat0_material_free);
  g_clear_pointer (&self->runtime, g_free);
  if (self->material == NULL)
    return;
  self->core = mat_material_dup_core (self->material);
  if (self->core == NULL)
    return;
  self->runtime = g_new0 (PhaseRuntime, MAX (self->core->n_phases, 1));
  phase_eval_expand_material (self->core, self->runtime);
}

/* The block shown, %NULL for the static phase. */
static const Mat0Block *
current_block (MatPreview *self)
{
  ensure_core (self);
  if (self->core == NULL || self->block < 0 || (guint) self->block >= self->core->n_blocks)
    return NULL;
  return &self->core->blocks[self->block];
}

static guint32
block_period (const Mat0Block *block)
{
  return block != NULL ? mat0_block_period (block) : 0;
}

static gboolean
block_is_random (const Mat0Block *block)
{
  return block != NULL && mat0_block_mode (block) == PHASE_EVAL_MODE_RANDOM;
}

/* The instance time: the clock plus the offset (wrapping as uint32). */
static guint32
preview_time (MatPreview *self)
{
  if (self->playback == NULL)
    return self->time_offset;   /* disposed */
  return (guint32) mat_playback_get_time (self->playback) + self->time_offset;
}

/* The one evaluation per change of the input. */
static const PhaseEvalResult *
ensure_evaluation (MatPreview *self)
{
  PhaseEvalInput input = { 0 };

  if (self->eval_valid)
    return self->have_eval ? &self->eval : NULL;

  self->eval_valid = TRUE;
  self->have_eval = FALSE;
  g_clear_pointer (&self->texture_name, g_free);
  ensure_core (self);
  if (self->core == NULL || self->core->n_phases == 0)
    return NULL;

  input.phases = self->runtime;
  input.n_phases = self->core->n_phases;
  input.block = current_block (self);
  input.static_phase = MIN (self->phase, (guint) self->core->n_phases - 1);
  phase_eval_at_time (&input, preview_time (self), 0, self->random_offset, &self->eval);
  self->n_evaluations++;
  self->have_eval = TRUE;

  if (self->eval.value.tex_slot >= 0
      && (guint) self->eval.value.tex_slot < self->core->n_phases
      && mat0_phase_is_textured (&self->core->phases[self->eval.value.tex_slot]))
    self->texture_name = mat0_phase_dup_texture (&self->core->phases[self->eval.value.tex_slot]);
  return &self->eval;
}

static void
invalidate_evaluation (MatPreview *self)
{
  self->eval_valid = FALSE;
}

static const Mat0BlendField *
blend_field (MatPreview *self)
{
  return mat0_fields_blend_of_attr1 (self->material != NULL
                                     ? mat_material_get_attr1 (self->material) : 0);
}

/* The texture the evaluated phase names, when the library has it. */
static MatTexture *
shown_texture (MatPreview *self)
{
  if (ensure_evaluation (self) == NULL || self->texture_name == NULL || self->textures == NULL)
    return NULL;
  return mat_texture_library_lookup (self->textures, self->texture_name);
}

static void sync_texture_status (MatPreview *self);

/* The longest side of a texture this view uploads: what its OpenGL takes
 * (once it runs), never more than MAT_TEXTURE_MAX_SHOWN_SIDE. */
static guint
max_texture_side (MatPreview *self)
{
  guint gl = self->gl_ready ? mat_preview_renderer_get_max_texture_size (self->renderer) : 0;

  return gl > 0 ? MIN (gl, MAT_TEXTURE_MAX_SHOWN_SIDE) : MAT_TEXTURE_MAX_SHOWN_SIDE;
}

/* ---- GL --------------------------------------------------------------- */

static gboolean
show_error_page (gpointer data)
{
  MatPreview *self = data;

  if (self->error != NULL && self->view_stack != NULL)
    gtk_stack_set_visible_child_name (self->view_stack, "error");
  return G_SOURCE_REMOVE;
}

/* Shows @error in place of the view; @on_purpose: asked for, not logged
 * as a warning. */
static void
show_gl_error (MatPreview   *self,
               const GError *error,
               gboolean      on_purpose)
{
  g_free (self->error);
  self->error = g_strdup (error->message);
  gtk_label_set_text (self->error_label, error->message);
  /* not while the stack is mapping the GL area (this runs in its realize) */
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, show_error_page, g_object_ref (self), g_object_unref);
  if (on_purpose)
    g_message ("Preview: %s", error->message);
  else
    g_warning ("Preview: %s", error->message);
}

/* OpenGL 3.3 core; OpenGL ES 3.0 when desktop GL cannot be had. */
static GdkGLContext *
on_create_context (GtkGLArea  *area,
                   MatPreview *self)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (GTK_WIDGET (area)));
  g_autoptr(GError) gl_error = NULL;
  g_autoptr(GError) es_error = NULL;
  g_autoptr(GError) error = NULL;
  GdkGLContext *context;

  context = gdk_surface_create_gl_context (surface, &gl_error);
  if (context != NULL)
    {
      gdk_gl_context_set_allowed_apis (context, GDK_GL_API_GL);
      gdk_gl_context_set_required_version (context, 3, 3);
      if (gdk_gl_context_realize (context, &gl_error))
        return context;
      g_clear_object (&context);

      context = gdk_surface_create_gl_context (surface, &es_error);
      if (context != NULL)
        {
          gdk_gl_context_set_allowed_apis (context, GDK_GL_API_GLES);
          gdk_gl_context_set_required_version (context, 3, 0);
          if (gdk_gl_context_realize (context, &es_error))
            return context;
          g_clear_object (&context);
        }
    }

  error = g_error_new (GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                       _("The preview needs OpenGL 3.3 or OpenGL ES 3.0: %s"),
                       gl_error != NULL ? gl_error->message
                       : es_error != NULL ? es_error->message : _("no context"));
  gtk_gl_area_set_error (area, error);
  return NULL;
}

static void
on_realize (GtkGLArea  *area,
            MatPreview *self)
{
  g_autoptr(GError) error = NULL;
  GdkGLContext *context;
  gboolean es;

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    {
      show_gl_error (self, gtk_gl_area_get_error (area), FALSE);
      return;
    }
  if (g_strcmp0 (g_getenv ("MATEDIT_PREVIEW_FAIL_GL"), "1") == 0)
    {
      error = g_error_new_literal (GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                                   _("OpenGL was turned off on purpose (MATEDIT_PREVIEW_FAIL_GL=1)."));
      gtk_gl_area_set_error (area, error);
      show_gl_error (self, error, TRUE);
      return;
    }

  context = gtk_gl_area_get_context (area);
  es = context != NULL && gdk_gl_context_get_use_es (context);
  if (context != NULL)
    {
      int major = 0, minor = 0;

      gdk_gl_context_get_version (context, &major, &minor);
      g_debug ("Preview: OpenGL%s %d.%d", es ? " ES" : "", major, minor);
    }
  if (!mat_preview_renderer_init_gl (self->renderer, es, &error))
    {
      gtk_gl_area_set_error (area, error);
      show_gl_error (self, error, FALSE);
      return;
    }

  self->gl_ready = TRUE;
  g_clear_pointer (&self->error, g_free);
  /* what this OpenGL takes may be less than what was said before */
  sync_texture_status (self);
  gtk_stack_set_visible_child_name (self->view_stack, "gl");
}

static void
on_unrealize (GtkGLArea  *area,
              MatPreview *self)
{
  if (!self->gl_ready)
    return;
  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) == NULL)
    mat_preview_renderer_fini_gl (self->renderer);
  self->gl_ready = FALSE;
}

/* What the renderer draws: the evaluation, the texture and its cell, the
 * blend mode, the view's choices. */
static void
fill_render_state (MatPreview            *self,
                   MatPreviewRenderState *state,
                   GBytes               **rgba)
{
  const PhaseEvalResult *eval = ensure_evaluation (self);
  const Mat0BlendField *blend = blend_field (self);
  g_autofree char *key = NULL;
  gboolean uploaded = FALSE;

  memset (state, 0, sizeof *state);
  state->shape = self->shape;
  state->rotation = (float) self->rotation;
  state->yaw = (float) self->yaw;
  state->pitch = (float) self->pitch;
  state->zoom = (float) self->zoom;
  state->background = self->background;
  state->scene[0] = (float) self->scene.red;
  state->scene[1] = (float) self->scene.green;
  state->scene[2] = (float) self->scene.blue;
  state->raw = self->unlit;
  state->blend_mode = blend->mode >= 0 ? (guint) blend->mode : 0;
  state->uv_rect[2] = state->uv_rect[3] = 1;
  if (eval == NULL)
    return;

  state->has_phase = TRUE;
  state->phase = eval->value;
  if (self->texture_name != NULL)
    {
      MatTexture *texture = shown_texture (self);
      guint width = 0, height = 0;

      if (texture != NULL)
        {
          TexmDrawAlpha how = mat_texture_draw_alpha (texture,
                                                      mat_material_get_attr1 (self->material),
                                                      self->emboss_bump);
          g_autofree char *name = g_ascii_strup (self->texture_name, -1);

          /* the upper-case name (the engine compares names that way) and
           * how its alpha draws (render.md 2): one GL texture each; the
           * pixels only when they are still to be uploaded */
          key = g_strdup_printf ("%s/%d", name, (int) how);
          uploaded = mat_preview_renderer_has_texture (self->renderer, key);
          if (!uploaded)
            /* a texture larger than OpenGL takes: a smaller level, or
             * reduced */
            *rgba = mat_texture_dup_drawn_rgba (texture, 0, max_texture_side (self), how,
                                                &width, &height);
          else
            mat_texture_get_fit (texture, 0, max_texture_side (self), NULL, &width, &height);
        }
      if (uploaded || *rgba != NULL)
        {
          state->texture_key = g_steal_pointer (&key);
          state->texture_rgba = *rgba;
          state->texture_width = width;
          state->texture_height = height;
          mat_preview_cell_uv_rect (mat_texture_get_image (texture), eval->value.i18,
                                    state->uv_rect);
        }
    }
}

static void
capture_frame (MatPreview *self,
               int         width,
               int         height)
{
  g_clear_pointer (&self->capture, g_bytes_unref);
  self->capture = mat_preview_renderer_read_pixels (self->renderer, width, height);
  self->capture_width = width;
  self->capture_height = height;
  self->capture_pending = FALSE;
}

static gboolean
on_render (GtkGLArea    *area,
           GdkGLContext *context,
           MatPreview   *self)
{
  MatPreviewRenderState state;
  g_autoptr(GBytes) rgba = NULL;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  int width = gtk_widget_get_width (GTK_WIDGET (area)) * scale;
  int height = gtk_widget_get_height (GTK_WIDGET (area)) * scale;

  if (!self->gl_ready || width <= 0 || height <= 0)
    return TRUE;

  fill_render_state (self, &state, &rgba);
  mat_preview_renderer_set_state (self->renderer, &state);
  g_free ((char *) state.texture_key);
  mat_preview_renderer_render (self->renderer, width, height, scale);

  if (self->capture_pending)
    capture_frame (self, width, height);
  self->n_renders++;
  return TRUE;
}

static void
queue_render (MatPreview *self)
{
  if (self->gl_ready)
    gtk_gl_area_queue_render (self->gl_area);
}

/* ---- starting GL after the window's first frames ---------------------
 *
 * Creating a GL context and compiling shaders takes tens of ms under a
 * software rasteriser: the view starts on a plain placeholder, and the
 * GL area is shown (and so realized) once the window has painted its
 * first frames, so that the window itself appears at once. */

static void
cancel_gl_start (MatPreview *self)
{
  g_clear_handle_id (&self->start_source, g_source_remove);
  if (self->start_clock == NULL)
    return;
  /* a clock whose surface went has dropped its handlers already */
  if (g_signal_handler_is_connected (self->start_clock, self->start_handler))
    g_signal_handler_disconnect (self->start_clock, self->start_handler);
  self->start_handler = 0;
  g_clear_object (&self->start_clock);
}

static void
start_gl (MatPreview *self)
{
  cancel_gl_start (self);
  if (self->gl_started)
    return;
  self->gl_started = TRUE;
  gtk_stack_set_visible_child_name (self->view_stack, self->error != NULL ? "error" : "gl");
}

static gboolean
start_gl_idle (gpointer data)
{
  MatPreview *self = data;

  self->start_source = 0;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_gl (self);
  return G_SOURCE_REMOVE;
}

static void
start_gl_after_paint (GdkFrameClock *clock,
                      MatPreview    *self)
{
  if (++self->start_paints < START_AFTER_FRAMES)
    {
      /* ask for the next frame: nothing else may */
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  if (self->start_source == 0)
    self->start_source = g_idle_add (start_gl_idle, self);
}

static void
schedule_gl_start (MatPreview *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (self->gl_started || self->start_clock != NULL || self->start_source != 0)
    return;
  if (clock == NULL)
    {
      start_gl (self);
      return;
    }
  self->start_clock = g_object_ref (clock);
  self->start_handler = g_signal_connect (clock, "after-paint",
                                          G_CALLBACK (start_gl_after_paint), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
keep_awake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until GL has started and realized (or failed), at
 * most until @deadline (monotonic µs). */
static void
wait_for_gl (MatPreview *self,
             gint64      deadline)
{
  guint awake;

  if (self->gl_ready || self->error != NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  awake = g_timeout_add (10, keep_awake, NULL);
  while (!self->gl_ready && self->error == NULL && g_get_monotonic_time () < deadline
         && gtk_widget_get_mapped (GTK_WIDGET (self)))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (awake);
}

/* ---- the view: drag to turn, scroll to zoom, double-click to reset ---- */

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               MatPreview     *self)
{
  self->drag_yaw = self->yaw;
  self->drag_pitch = self->pitch;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self->gl_area), "grabbing");
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                MatPreview     *self)
{
  g_object_freeze_notify (G_OBJECT (self));
  mat_preview_set_yaw (self, self->drag_yaw + dx * DRAG_DEGREES_PER_PX);
  mat_preview_set_pitch (self, self->drag_pitch + dy * DRAG_DEGREES_PER_PX);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             MatPreview     *self)
{
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self->gl_area), "grab");
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           MatPreview               *self)
{
  if (dy == 0)
    return FALSE;
  /* up (negative) zooms in */
  mat_preview_set_zoom (self, self->zoom * pow (ZOOM_STEP, -dy));
  return TRUE;
}

static void
on_view_pressed (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 MatPreview      *self)
{
  if (n_press == 2)
    mat_preview_reset_view (self);
}

/* ---- controls --------------------------------------------------------- */

/* The mode's name from the table of meanings, %NULL for 4..7. */
static const char *
mode_label (guint mode)
{
  const Mat0ModeField *field = mat0_fields_mode (mode);

  return field->known ? _(field->label) : NULL;
}

static guint
block_mode (const Mat0Block *block)
{
  return block != NULL ? mat0_block_mode (block) : PHASE_EVAL_MODE_LOOP;
}

/* How far the time scale reaches: one cycle of the block (the core's:
 * two periods for ping-pong, there and back). */
static guint32
scale_span (MatPreview *self)
{
  const Mat0Block *block = current_block (self);

  return phase_eval_cycle (block_mode (block), block_period (block));
}

static void
sync_readout (MatPreview *self)
{
  const PhaseEvalResult *eval = ensure_evaluation (self);
  guint32 time = preview_time (self);
  g_autofree char *seconds = g_strdup_printf ("%.1f", time / 1000.0);
  g_autofree char *text = NULL;

  if (eval == NULL)
    /* Translators: the preview's time since the instance started, in
     * seconds ("7.6") */
    text = g_strdup_printf (_("Time %s s"), seconds);
  else if (eval->period == 0)
    /* Translators: the phase shown when nothing is animated */
    text = g_strdup_printf (_("Phase %d, not animated"), eval->phase_a);
  else
    /* Translators: the time since the instance started in seconds
     * ("7.6"), then where that falls in the track's cycle and the
     * cycle's length, in ms: "Time 7.6 s · at 1316 of the 2100 ms cycle" */
    text = g_strdup_printf (_("Time %s s · at %u of the %u ms cycle"), seconds, eval->r,
                            eval->period);
  if (g_strcmp0 (gtk_label_get_text (self->time_label), text) != 0)
    gtk_label_set_text (self->time_label, text);

  if (eval != NULL && eval->period > 0)
    {
      g_autofree char *tip = NULL;

      if (eval->hold)
        tip = g_strdup_printf (_("Holding key %d (phase %d)"), eval->segment, eval->phase_a);
      else
        /* Translators: key k -> next key, blend factor, phase a -> phase b */
        tip = g_strdup_printf (_("Key %d → %d, α %.3f, phase %d → %d"), eval->segment, eval->next,
                               eval->alpha, eval->phase_a, eval->phase_b);
      mat_tooltip_set_text (GTK_WIDGET (self->time_label), tip);
    }
  else
    mat_tooltip_set_text (GTK_WIDGET (self->time_label), NULL);
}

static void
sync_time (MatPreview *self)
{
  guint32 span = scale_span (self);
  const Mat0Block *block = current_block (self);
  guint32 time = preview_time (self);
  double value = 0;

  self->syncing = TRUE;
  if (span > 0)
    {
      value = phase_eval_cycle_time (block_mode (block), block_period (block), time);
      /* while playing only the value moves: no new bounds, no relayout */
      if (gtk_adjustment_get_upper (self->time_adjustment) == span)
        gtk_adjustment_set_value (self->time_adjustment, value);
      else
        gtk_adjustment_configure (self->time_adjustment, value, 0, span, 10, span / 10.0, 0);
    }
  else
    gtk_adjustment_configure (self->time_adjustment, 0, 0, 1, 1, 1, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->time_scale), span > 0);
  self->syncing = FALSE;
}

/* A mark where each key's interval ends (its k1), but the period's end;
 * for ping-pong the way back too, mirrored, and the turnaround. Each
 * mark is a widget of the scale, and GTK keeps them in a sorted list:
 * a block of more than MAX_TIME_MARKS keys gets only the turnaround
 * (its marks would be a solid bar under the scale anyway). */
static void
sync_marks (MatPreview *self)
{
  const Mat0Block *block = current_block (self);
  guint32 span = scale_span (self);
  guint32 period = block_period (block);

  gtk_scale_clear_marks (self->time_scale);
  if (block == NULL || span == 0)
    return;
  if (block->n_keys > MAX_TIME_MARKS)
    {
      if (span > period)
        gtk_scale_add_mark (self->time_scale, period, GTK_POS_BOTTOM, NULL);
      return;
    }
  for (guint k = 0; k < block->n_keys; k++)
    {
      guint32 t = block->keys[k].k1;

      if (t == 0 || t >= period)
        continue;
      gtk_scale_add_mark (self->time_scale, t, GTK_POS_BOTTOM, NULL);
      if (span > period)
        gtk_scale_add_mark (self->time_scale, (double) span - t, GTK_POS_BOTTOM, NULL);
    }
  if (span > period)
    gtk_scale_add_mark (self->time_scale, period, GTK_POS_BOTTOM, NULL);
}

/* A label over the view and its chip, shown or hidden together. */
static void
set_hud_visible (GtkLabel *label,
                 gboolean  visible)
{
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (label)), visible);
  gtk_widget_set_visible (GTK_WIDGET (label), visible);
}

/* Problems with the texture: not found, not decodable, a cell past its
 * Page table (a lint: the whole texture is drawn). */
static void
sync_texture_status (MatPreview *self)
{
  const PhaseEvalResult *eval = ensure_evaluation (self);
  g_autofree char *text = NULL;

  if (eval != NULL && self->texture_name != NULL)
    {
      MatTexture *texture = shown_texture (self);
      MatTextureFit fit;
      guint w = 0, h = 0;
      float rect[4];

      if (texture == NULL)
        text = g_strdup_printf (_("Texture %s not found: drawn untextured"), self->texture_name);
      else if (mat_texture_get_error (texture) != NULL)
        text = g_strdup_printf (_("Texture %s cannot be decoded: drawn untextured"),
                                self->texture_name);
      else if ((fit = mat_texture_get_fit (texture, 0, max_texture_side (self), NULL, &w, &h))
               == MAT_TEXTURE_FIT_TOO_LARGE)
        /* Translators: a texture's name, width and height */
        text = g_strdup_printf (_("Texture %s is too large to show (%u × %u): drawn untextured"),
                                self->texture_name, mat_texture_get_width (texture),
                                mat_texture_get_height (texture));
      else if (fit == MAT_TEXTURE_FIT_SMALLER || fit == MAT_TEXTURE_FIT_REDUCED)
        /* Translators: a texture's name, width and height, then the size it is drawn at */
        text = g_strdup_printf (_("Texture %s is too large to draw as it is (%u × %u): drawn at %u × %u"),
                                self->texture_name, mat_texture_get_width (texture),
                                mat_texture_get_height (texture), w, h);
      else if (!mat_preview_cell_uv_rect (mat_texture_get_image (texture), eval->value.i18, rect))
        /* Translators: the cell (p17), the texture, its number of Page rectangles */
        text = g_strdup_printf (_("Cell %d is past the Page table of %s (%u rectangles): the whole texture is drawn"),
                                eval->value.i18, self->texture_name,
                                mat_texture_get_page_rects (texture));
    }
  if (text != NULL && g_strcmp0 (gtk_label_get_text (self->texture_label), text) != 0)
    {
      gtk_label_set_text (self->texture_label, text);
      /* the whole line when the view is too narrow for it */
      mat_tooltip_set_text (GTK_WIDGET (self->texture_label), text);
    }
  set_hud_visible (self->texture_label, text != NULL);
}

/* The blend line without the opacity. Returns: (transfer full) */
static char *
blend_text (const Mat0BlendField *blend)
{
  if (blend->mode < 0)
    /* Translators: b = (attr1 >> 2) & 15, past the engine's table */
    return g_strdup_printf (_("Unknown blend index %u: drawn as opaque"), blend->index);
  /* Translators: the blend mode's name, then its source and destination factors */
  return g_strdup_printf (_("Blend: %s (%s, %s)"), _(blend->label), blend->src_blend,
                          blend->dst_blend);
}

/* A readout and its ghost share a stack, the readout shown: a tooltip
 * set hides the label for a moment (mat-tooltip.h), and the stack then
 * shows a ghost instead; the label is brought back when it is shown. */
static void
readout_visible_cb (GtkWidget  *label,
                    GParamSpec *pspec,
                    GtkStack   *stack)
{
  if (gtk_widget_get_visible (label) && gtk_stack_get_visible_child (stack) != label)
    gtk_stack_set_visible_child (stack, label);
}

/* How the material is drawn: its blend mode (or an unknown blend index,
 * drawn as opaque) and whether it is translucent. */
static void
sync_blend_status (MatPreview *self)
{
  const PhaseEvalResult *eval = ensure_evaluation (self);
  const Mat0BlendField *blend = blend_field (self);
  g_autofree char *mode = NULL;
  g_autofree char *text = NULL;

  if (self->material == NULL)
    {
      set_hud_visible (self->blend_label, FALSE);
      return;
    }
  mode = blend_text (blend);
  if (eval != NULL && eval->value.f[7] < 1.0f)
    /* Translators: the blend text above, then the opacity in per cent */
    text = g_strdup_printf (_("%s · opacity %d %%, no depth writes"), mode,
                            (int) lrintf (MAX (eval->value.f[7], 0.0f) * 100.0f));
  else
    text = g_steal_pointer (&mode);

  if (g_strcmp0 (gtk_label_get_text (self->blend_label), text) != 0)
    {
      /* the whole text too: a narrow pane ellipsizes the label */
      g_autofree char *tip = g_strdup_printf ("%s\n%s", text, _(blend->meaning));

      gtk_label_set_text (self->blend_label, text);
      mat_tooltip_set_text (GTK_WIDGET (self->blend_label), tip);
    }
  if (blend->mode < 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->blend_label), "warning");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->blend_label), "warning");
  /* over the view, with the controls */
  set_hud_visible (self->blend_label, self->show_controls);
}

static void
sync_phase_control (MatPreview *self)
{
  const Mat0Block *block = current_block (self);
  guint n = self->core != NULL ? self->core->n_phases : 0;
  gboolean static_shown = self->core != NULL && (block == NULL || block->n_keys == 0);

  self->syncing = TRUE;
  gtk_adjustment_configure (self->phase_adjustment, MIN (self->phase, n > 0 ? n - 1 : 0),
                            0, n > 0 ? n - 1 : 0, 1, 1, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->phase_spin), static_shown && n > 1);
  self->syncing = FALSE;
}

static void
sync_reroll (MatPreview *self)
{
  gboolean random = block_is_random (current_block (self));
  const char *about = _("Draw a new random offset R (mode 3 “random”: each instance starts at a random point of the cycle)");
  g_autofree char *tip = NULL;

  if (random)
    /* Translators: the random offset R of mode 3, in ms, then what the
     * button does */
    tip = g_strdup_printf (_("R = %u ms\n%s"), self->random_offset, about);
  mat_tooltip_set_text (GTK_WIDGET (self->reroll_button), tip != NULL ? tip : about);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preview.reroll", random);
}

static gboolean
same_strings (GListModel *model,
              GPtrArray  *labels)
{
  if (model == NULL || g_list_model_get_n_items (model) != labels->len)
    return FALSE;
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i),
                   g_ptr_array_index (labels, i)) != 0)
      return FALSE;
  return TRUE;
}

/* The block list is replaced only when its labels change: never while the
 * drop-down reports a selection. */
static void
sync_blocks (MatPreview *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint n = self->core != NULL ? self->core->n_blocks : 0;

  g_ptr_array_add (labels, g_strdup (_("Static phase")));
  for (guint b = 0; b < n; b++)
    {
      guint mode = mat0_block_mode (&self->core->blocks[b]);
      const char *name = mode_label (mode);

      if (name != NULL)
        /* Translators: animation block index and its playback mode */
        g_ptr_array_add (labels, g_strdup_printf (_("Block %u (%s)"), b, name));
      else
        g_ptr_array_add (labels, g_strdup_printf (_("Block %u (unknown mode %u)"), b, mode));
    }

  self->syncing = TRUE;
  if (!same_strings (mat_drop_down_get_model (self->block_dropdown), labels))
    {
      g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

      for (guint i = 0; i < labels->len; i++)
        gtk_string_list_append (list, g_ptr_array_index (labels, i));
      mat_drop_down_set_model (self->block_dropdown, G_LIST_MODEL (list));
    }
  if (mat_drop_down_get_selected (self->block_dropdown) != (guint) (self->block + 1))
    mat_drop_down_set_selected (self->block_dropdown, (guint) (self->block + 1));
  gtk_widget_set_sensitive (GTK_WIDGET (self->block_dropdown), self->core != NULL);
  self->syncing = FALSE;
}

/* The clock of its own stops at the end of the shown block's cycle (a
 * ping-pong there and back) when loop is off. */
static void
sync_period (MatPreview *self)
{
  if (self->owns_playback)
    mat_playback_set_period (self->playback, scale_span (self));
}

/* Everything that depends on the evaluation or the block. */
static void
sync_all (MatPreview *self)
{
  ensure_core (self);
  sync_period (self);
  sync_blocks (self);
  sync_phase_control (self);
  sync_time (self);
  sync_marks (self);
  sync_readout (self);
  sync_texture_status (self);
  sync_blend_status (self);
  sync_reroll (self);
}

/* What changes with the time (the readout at most every
 * READOUT_INTERVAL_US while playing). */
static void
sync_for_time (MatPreview *self,
               gboolean    readout)
{
  sync_time (self);
  if (readout)
    {
      sync_readout (self);
      sync_texture_status (self);
      sync_blend_status (self);
    }
}

static void
sync_play_button (MatPreview *self)
{
  gboolean playing = mat_playback_get_playing (self->playback);

  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic"
                                    : "media-playback-start-symbolic");
}

static void
sync_speed (MatPreview *self)
{
  self->syncing = TRUE;
  gtk_adjustment_set_value (self->speed_adjustment, mat_playback_get_speed (self->playback));
  self->syncing = FALSE;
}

static void
sync_background_controls (MatPreview *self)
{
  self->syncing = TRUE;
  if (mat_drop_down_get_selected (self->background_dropdown) != (guint) self->background)
    mat_drop_down_set_selected (self->background_dropdown, self->background);
  g_object_set (self->scene_button, "rgba", &self->scene, NULL);
  self->syncing = FALSE;
}

/* ---- the clock -------------------------------------------------------- */

static void
set_random_offset_internal (MatPreview *self,
                            guint32     random_offset)
{
  if (self->random_offset == random_offset)
    return;
  self->random_offset = random_offset;
  invalidate_evaluation (self);
  sync_reroll (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANDOM_OFFSET]);
}

/* As the engine: R = rand () % period of the shown block (0 without one). */
static guint32
draw_random_offset (MatPreview *self)
{
  guint32 period = block_period (current_block (self));
  guint32 value = g_rand_int (self->rand);

  return period > 0 ? value % period : 0;
}

static void
on_playback_time (MatPreview *self)
{
  gboolean playing = mat_playback_get_playing (self->playback);
  gboolean readout = TRUE;

  /* mode 3: the engine jumps to a fresh random point at every frame */
  if (playing && block_is_random (current_block (self)))
    set_random_offset_internal (self, draw_random_offset (self));
  if (playing)
    {
      gint64 now = g_get_monotonic_time ();

      readout = now - self->last_readout >= READOUT_INTERVAL_US;
      if (readout)
        self->last_readout = now;
    }
  invalidate_evaluation (self);
  sync_for_time (self, readout);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
}

static void
on_playback_frame (MatPreview  *self,
                   double       elapsed_ms)
{
  self->rotation = fmod (self->rotation + elapsed_ms * ROTATION_SPEED, 360.0);
  queue_render (self);
}

static void
on_playback_playing (MatPreview *self)
{
  sync_play_button (self);
  if (!mat_playback_get_playing (self->playback))
    sync_for_time (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

static void
on_playback_speed (MatPreview *self)
{
  sync_speed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

static void
on_playback_loop (MatPreview *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOOP]);
}

/* ---- settings --------------------------------------------------------- */

static gboolean
scene_from_setting (GValue   *value,
                    GVariant *variant,
                    gpointer  data)
{
  GdkRGBA colour;

  if (!gdk_rgba_parse (&colour, g_variant_get_string (variant, NULL)))
    return FALSE;
  colour.alpha = 1;
  g_value_set_boxed (value, &colour);
  return TRUE;
}

static GVariant *
scene_to_setting (const GValue       *value,
                  const GVariantType *type,
                  gpointer            data)
{
  const GdkRGBA *colour = g_value_get_boxed (value);
  GdkRGBA opaque;
  g_autofree char *text = NULL;

  if (colour == NULL)
    return NULL;
  opaque = *colour;
  opaque.alpha = 1;
  text = gdk_rgba_to_string (&opaque);
  return g_variant_new_string (text);
}

/* Background and scene colour follow the application's settings. */
static void
bind_settings (MatPreview *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkApplication *app;
  GSettings *settings;

  if (self->settings != NULL || !GTK_IS_WINDOW (root))
    return;
  app = gtk_window_get_application (GTK_WINDOW (root));
  if (!MAT_IS_APPLICATION (app))
    return;
  settings = mat_application_get_settings (MAT_APPLICATION (app));
  if (settings == NULL)
    return;

  self->settings = g_object_ref (settings);
  g_settings_bind (settings, "preview-background", self, "background", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "emboss-bump", self, "emboss-bump", G_SETTINGS_BIND_GET);
  g_settings_bind_with_mapping (settings, "preview-scene-colour", self, "scene-colour",
                                G_SETTINGS_BIND_DEFAULT, scene_from_setting, scene_to_setting,
                                NULL, NULL);
}

static void
unbind_settings (MatPreview *self)
{
  if (self->settings == NULL)
    return;
  g_settings_unbind (self, "background");
  g_settings_unbind (self, "emboss-bump");
  g_settings_unbind (self, "scene-colour");
  g_clear_object (&self->settings);
}

/* ---- model signals ---------------------------------------------------- */

static void
clamp_selection (MatPreview *self)
{
  guint n_blocks = self->core != NULL ? self->core->n_blocks : 0;

  if (self->block >= 0 && (guint) self->block >= n_blocks)
    {
      self->block = n_blocks > 0 ? (int) n_blocks - 1 : -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
    }
}

static void
on_material_changed (MatPreview *self)
{
  self->core_valid = FALSE;
  invalidate_evaluation (self);
  ensure_core (self);
  clamp_selection (self);
  sync_all (self);
  queue_render (self);
}

/* ---- control callbacks ------------------------------------------------ */

static void
on_time_scale_changed (GtkAdjustment *adjustment,
                       MatPreview    *self)
{
  guint32 span = scale_span (self);
  guint64 value = (guint64) gtk_adjustment_get_value (adjustment);
  guint64 base;

  if (self->syncing || span == 0)
    return;
  /* Keep the instance in its period; one-shot holds after the first. */
  base = (preview_time (self) / span) * (guint64) span;
  if (mat0_block_mode (current_block (self)) == PHASE_EVAL_MODE_ONE_SHOT)
    base = 0;
  mat_preview_set_time (self, (guint32) MIN (base + value, G_MAXUINT32));
}

static void
on_block_selected (MatDropDown *dropdown,
                   GParamSpec  *pspec,
                   MatPreview  *self)
{
  guint selected = mat_drop_down_get_selected (dropdown);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;
  mat_preview_set_block (self, (int) selected - 1);
}

static void
on_shape_selected (MatDropDown *dropdown,
                   GParamSpec  *pspec,
                   MatPreview  *self)
{
  guint selected = mat_drop_down_get_selected (dropdown);

  if (self->syncing || selected > MAT_PREVIEW_SHAPE_PLANE)
    return;
  mat_preview_set_shape (self, (MatPreviewShape) selected);
}

static void
on_background_selected (MatDropDown *dropdown,
                        GParamSpec  *pspec,
                        MatPreview  *self)
{
  guint selected = mat_drop_down_get_selected (dropdown);

  if (self->syncing || selected > MAT_PREVIEW_BACKGROUND_SCENE)
    return;
  mat_preview_set_background (self, (MatPreviewBackground) selected);
}

static void
on_scene_button_changed (GObject    *button,
                         GParamSpec *pspec,
                         MatPreview *self)
{
  GdkRGBA *colour = NULL;

  if (self->syncing)
    return;
  g_object_get (button, "rgba", &colour, NULL);
  if (colour != NULL)
    mat_preview_set_scene_colour (self, colour);
  g_clear_pointer (&colour, gdk_rgba_free);
}

static void
on_phase_spin_changed (GtkAdjustment *adjustment,
                       MatPreview    *self)
{
  if (self->syncing)
    return;
  mat_preview_set_phase (self, (guint) gtk_adjustment_get_value (adjustment));
}

static void
on_speed_changed (GtkAdjustment *adjustment,
                  MatPreview    *self)
{
  if (self->syncing)
    return;
  mat_preview_set_speed (self, gtk_adjustment_get_value (adjustment));
}

static void
reroll_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  mat_preview_reroll (MAT_PREVIEW (widget));
}

/* ---- GObject ---------------------------------------------------------- */

static void
mat_preview_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (mat_preview_parent_class)->map (widget);
  bind_settings (MAT_PREVIEW (widget));
  schedule_gl_start (MAT_PREVIEW (widget));
}

static void
mat_preview_unmap (GtkWidget *widget)
{
  cancel_gl_start (MAT_PREVIEW (widget));
  GTK_WIDGET_CLASS (mat_preview_parent_class)->unmap (widget);
}

static void
mat_preview_unroot (GtkWidget *widget)
{
  unbind_settings (MAT_PREVIEW (widget));
  GTK_WIDGET_CLASS (mat_preview_parent_class)->unroot (widget);
}

static void
mat_preview_dispose (GObject *object)
{
  MatPreview *self = MAT_PREVIEW (object);

  /* the controls may notify as they go: ignore them from here on */
  self->syncing = TRUE;
  cancel_gl_start (self);
  unbind_settings (self);
  if (self->playback_signals != NULL)
    g_signal_group_set_target (self->playback_signals, NULL);
  if (self->playback != NULL && self->owns_playback)
    {
      mat_playback_set_playing (self->playback, FALSE);
      mat_playback_set_widget (self->playback, NULL);
    }
  g_clear_object (&self->playback_signals);
  g_clear_object (&self->playback);
  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  if (self->phases_signals != NULL)
    g_signal_group_set_target (self->phases_signals, NULL);
  if (self->blocks_signals != NULL)
    g_signal_group_set_target (self->blocks_signals, NULL);
  g_clear_object (&self->material_signals);
  g_clear_object (&self->phases_signals);
  g_clear_object (&self->blocks_signals);
  g_clear_object (&self->material);
  g_clear_object (&self->textures);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_PREVIEW);

  G_OBJECT_CLASS (mat_preview_parent_class)->dispose (object);
}

static void
mat_preview_finalize (GObject *object)
{
  MatPreview *self = MAT_PREVIEW (object);

  g_clear_pointer (&self->renderer, mat_preview_renderer_free);
  g_clear_pointer (&self->core, mat0_material_free);
  g_clear_pointer (&self->runtime, g_free);
  g_clear_pointer (&self->texture_name, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->capture, g_bytes_unref);
  g_clear_pointer (&self->rand, g_rand_free);

  G_OBJECT_CLASS (mat_preview_parent_class)->finalize (object);
}

static void
mat_preview_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  MatPreview *self = MAT_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL: g_value_set_object (value, self->material); break;
    case PROP_BLOCK: g_value_set_int (value, self->block); break;
    case PROP_PHASE: g_value_set_uint (value, self->phase); break;
    case PROP_TIME: g_value_set_uint (value, preview_time (self)); break;
    case PROP_TIME_OFFSET: g_value_set_uint (value, self->time_offset); break;
    case PROP_RANDOM_OFFSET: g_value_set_uint (value, self->random_offset); break;
    case PROP_PLAYING: g_value_set_boolean (value, mat_playback_get_playing (self->playback)); break;
    case PROP_LOOP: g_value_set_boolean (value, mat_playback_get_loop (self->playback)); break;
    case PROP_SPEED: g_value_set_double (value, mat_playback_get_speed (self->playback)); break;
    case PROP_PLAYBACK: g_value_set_object (value, self->playback); break;
    case PROP_UNLIT: g_value_set_boolean (value, self->unlit); break;
    case PROP_EMBOSS_BUMP: g_value_set_boolean (value, self->emboss_bump); break;
    case PROP_SHAPE: g_value_set_enum (value, self->shape); break;
    case PROP_BACKGROUND: g_value_set_enum (value, self->background); break;
    case PROP_SCENE_COLOUR: g_value_set_boxed (value, &self->scene); break;
    case PROP_TEXTURES: g_value_set_object (value, self->textures); break;
    case PROP_SHOW_CONTROLS: g_value_set_boolean (value, self->show_controls); break;
    case PROP_YAW: g_value_set_double (value, self->yaw); break;
    case PROP_PITCH: g_value_set_double (value, self->pitch); break;
    case PROP_ZOOM: g_value_set_double (value, self->zoom); break;
    case PROP_ORIENTATION: g_value_set_enum (value, self->orientation); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* ---- layout ------------------------------------------------------------
 *
 * The view and its controls, laid out so that the view never moves while
 * a track plays or after an edit: what the controls say changes (their
 * labels' natural widths change with the text), what they take does not.
 * Above the controls (vertical) the view has the width and the height
 * the controls leave, and the controls count with their narrowest width
 * only; beside them (horizontal) the controls take exactly their
 * narrowest width (CONTROLS_WIDTH, or more if a control needs it). The
 * readouts' heights are kept by their ghost labels (mat-preview.ui). */

static gboolean
controls_shown (MatPreview *self)
{
  return self->controls != NULL && gtk_widget_get_visible (self->controls);
}

/* The controls' width beside the view: their narrowest. */
static int
controls_column_width (MatPreview *self)
{
  int minimum = 0;

  gtk_widget_measure (self->controls, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  return minimum;
}

static GtkSizeRequestMode
layout_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
measure_layout (GtkWidget      *widget,
                GtkOrientation  orientation,
                int             for_size,
                int            *minimum,
                int            *natural,
                int            *minimum_baseline,
                int            *natural_baseline)
{
  MatPreview *self = MAT_PREVIEW (widget);
  gboolean beside = self->orientation == GTK_ORIENTATION_HORIZONTAL;
  int view_min = 0, view_nat = 0, c_min = 0, c_nat = 0;

  *minimum_baseline = *natural_baseline = -1;
  if (self->view_stack == NULL)
    {
      *minimum = *natural = 0;
      return;
    }
  if (!controls_shown (self))
    {
      gtk_widget_measure (GTK_WIDGET (self->view_stack), orientation, for_size, minimum, natural, NULL, NULL);
      return;
    }

  if (beside && orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int column = controls_column_width (self);

      gtk_widget_measure (GTK_WIDGET (self->view_stack), orientation, for_size, &view_min, &view_nat, NULL, NULL);
      *minimum = view_min + column;
      *natural = view_nat + column;
    }
  else if (beside)
    {
      /* heights: the taller of the two, each at its own width */
      int column = controls_column_width (self);
      int view_width = for_size < 0 ? -1 : MAX (for_size - column, 0);

      gtk_widget_measure (GTK_WIDGET (self->view_stack), orientation, view_width, &view_min, &view_nat, NULL, NULL);
      gtk_widget_measure (self->controls, orientation, for_size < 0 ? -1 : column,
                          &c_min, &c_nat, NULL, NULL);
      *minimum = MAX (view_min, c_min);
      *natural = MAX (view_nat, c_nat);
    }
  else if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* widths: the controls count with their narrowest, whatever the
       * text of their labels */
      gtk_widget_measure (GTK_WIDGET (self->view_stack), orientation, -1, &view_min, &view_nat, NULL, NULL);
      gtk_widget_measure (self->controls, orientation, -1, &c_min, NULL, NULL, NULL);
      *minimum = MAX (view_min, c_min);
      *natural = MAX (view_nat, c_min);
    }
  else
    {
      gtk_widget_measure (GTK_WIDGET (self->view_stack), orientation, for_size, &view_min, &view_nat, NULL, NULL);
      gtk_widget_measure (self->controls, orientation, for_size, &c_min, &c_nat, NULL, NULL);
      *minimum = view_min + c_min;
      *natural = view_nat + c_nat;
    }
}

static void
allocate_layout (GtkWidget *widget,
                 int        width,
                 int        height,
                 int        baseline)
{
  MatPreview *self = MAT_PREVIEW (widget);

  if (self->view_stack == NULL)
    return;
  if (!controls_shown (self))
    {
      gtk_widget_allocate (GTK_WIDGET (self->view_stack), width, height, -1, NULL);
      return;
    }

  if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int column = MIN (controls_column_width (self), width);

      gtk_widget_allocate (GTK_WIDGET (self->view_stack), width - column, height, -1, NULL);
      gtk_widget_allocate (self->controls, column, height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (width - column, 0)));
    }
  else
    {
      int c_nat = 0, view_min = 0, controls_height;

      gtk_widget_measure (self->controls, GTK_ORIENTATION_VERTICAL, width, NULL, &c_nat, NULL, NULL);
      gtk_widget_measure (GTK_WIDGET (self->view_stack), GTK_ORIENTATION_VERTICAL, width, &view_min, NULL, NULL, NULL);
      controls_height = CLAMP (c_nat, 0, MAX (height - view_min, 0));
      gtk_widget_allocate (GTK_WIDGET (self->view_stack), width, height - controls_height, -1, NULL);
      gtk_widget_allocate (self->controls, width, controls_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, height - controls_height)));
    }
}

/* Vertical: the view above its controls (a narrow pane beside the
 * pages). Horizontal: the controls in a column beside the view (a strip
 * under the pages). */
static void
set_orientation (MatPreview     *self,
                 GtkOrientation  orientation)
{
  gboolean beside = orientation == GTK_ORIENTATION_HORIZONTAL;

  if (self->orientation == orientation)
    return;
  self->orientation = orientation;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_set_size_request (self->controls, beside ? CONTROLS_WIDTH : -1, -1);
  gtk_widget_set_hexpand (self->controls, !beside);
  g_object_notify (G_OBJECT (self), "orientation");
}

static void
mat_preview_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  MatPreview *self = MAT_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL: mat_preview_set_material (self, g_value_get_object (value)); break;
    case PROP_BLOCK: mat_preview_set_block (self, g_value_get_int (value)); break;
    case PROP_PHASE: mat_preview_set_phase (self, g_value_get_uint (value)); break;
    case PROP_TIME: mat_preview_set_time (self, g_value_get_uint (value)); break;
    case PROP_TIME_OFFSET: mat_preview_set_time_offset (self, g_value_get_uint (value)); break;
    case PROP_RANDOM_OFFSET: mat_preview_set_random_offset (self, g_value_get_uint (value)); break;
    case PROP_PLAYING: mat_preview_set_playing (self, g_value_get_boolean (value)); break;
    case PROP_LOOP: mat_preview_set_loop (self, g_value_get_boolean (value)); break;
    case PROP_SPEED: mat_preview_set_speed (self, g_value_get_double (value)); break;
    case PROP_PLAYBACK: mat_preview_set_playback (self, g_value_get_object (value)); break;
    case PROP_UNLIT: mat_preview_set_unlit (self, g_value_get_boolean (value)); break;
    case PROP_EMBOSS_BUMP: mat_preview_set_emboss_bump (self, g_value_get_boolean (value)); break;
    case PROP_SHAPE: mat_preview_set_shape (self, g_value_get_enum (value)); break;
    case PROP_BACKGROUND: mat_preview_set_background (self, g_value_get_enum (value)); break;
    case PROP_SCENE_COLOUR: mat_preview_set_scene_colour (self, g_value_get_boxed (value)); break;
    case PROP_TEXTURES: mat_preview_set_textures (self, g_value_get_object (value)); break;
    case PROP_SHOW_CONTROLS: mat_preview_set_show_controls (self, g_value_get_boolean (value)); break;
    case PROP_YAW: mat_preview_set_yaw (self, g_value_get_double (value)); break;
    case PROP_PITCH: mat_preview_set_pitch (self, g_value_get_double (value)); break;
    case PROP_ZOOM: mat_preview_set_zoom (self, g_value_get_double (value)); break;
    case PROP_ORIENTATION: set_orientation (self, g_value_get_enum (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_preview_class_init (MatPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (MAT_TYPE_DROP_DOWN);
  object_class->dispose = mat_preview_dispose;
  object_class->finalize = mat_preview_finalize;
  object_class->get_property = mat_preview_get_property;
  object_class->set_property = mat_preview_set_property;
  widget_class->map = mat_preview_map;
  widget_class->unmap = mat_preview_unmap;
  widget_class->unroot = mat_preview_unroot;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BLOCK] =
    g_param_spec_int ("block", NULL, NULL, -1, MAT0_MAX_BLOCKS - 1, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PHASE] =
    g_param_spec_uint ("phase", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME] =
    g_param_spec_uint ("time", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME_OFFSET] =
    g_param_spec_uint ("time-offset", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RANDOM_OFFSET] =
    g_param_spec_uint ("random-offset", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOOP] =
    g_param_spec_boolean ("loop", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.25, 4.0, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAYBACK] =
    g_param_spec_object ("playback", NULL, NULL, MAT_TYPE_PLAYBACK,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNLIT] =
    g_param_spec_boolean ("unlit", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EMBOSS_BUMP] =
    g_param_spec_boolean ("emboss-bump", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHAPE] =
    g_param_spec_enum ("shape", NULL, NULL, MAT_TYPE_PREVIEW_SHAPE, MAT_PREVIEW_SHAPE_SPHERE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BACKGROUND] =
    g_param_spec_enum ("background", NULL, NULL, MAT_TYPE_PREVIEW_BACKGROUND,
                       MAT_PREVIEW_BACKGROUND_CHECKERBOARD,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SCENE_COLOUR] =
    g_param_spec_boxed ("scene-colour", NULL, NULL, GDK_TYPE_RGBA,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_CONTROLS] =
    g_param_spec_boolean ("show-controls", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_YAW] =
    g_param_spec_double ("yaw", NULL, NULL, -180.0, 180.0, 0.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PITCH] =
    g_param_spec_double ("pitch", NULL, NULL, -90.0, 90.0, 0.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, MAT_PREVIEW_ZOOM_MIN, MAT_PREVIEW_ZOOM_MAX, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_ORIENTATION, "orientation");

  gtk_widget_class_install_property_action (widget_class, "preview.playing", "playing");
  gtk_widget_class_install_property_action (widget_class, "preview.loop", "loop");
  gtk_widget_class_install_property_action (widget_class, "preview.unlit", "unlit");
  gtk_widget_class_install_action (widget_class, "preview.reroll", NULL, reroll_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "preview.playing", NULL);

  /* the view and the controls: laid out below (measure_layout,
   * allocate_layout) */
  gtk_widget_class_set_css_name (widget_class, "matpreview");
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "mat-preview.ui");
  gtk_widget_class_bind_template_child (widget_class, MatPreview, view_stack);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, gl_area);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, error_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, controls);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, play_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, loop_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, time_scale);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, time_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, time_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, phase_spin);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, phase_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, reroll_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, shape_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, unlit_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, speed_spin);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, speed_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, background_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, scene_box);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, time_readout);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, blend_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, texture_label);
}

/* The scene colour's button (its "rgba" property is the colour). */
static GtkWidget *
scene_button_new (void)
{
  GtkWidget *button = mat_dialogs_colour_button_new (_("Scene Colour"), FALSE);

  mat_tooltip_set_text (button, _("Scene colour: the mission’s sky colour, added to "
                                  "every material’s self-light (Mission 01: grey 40)"));
  return button;
}

static void
set_own_playback (MatPreview *self)
{
  self->playback = mat_playback_new ();
  self->owns_playback = TRUE;
  mat_playback_set_widget (self->playback, GTK_WIDGET (self));
}

/* The controls' tooltips (the reroll button's follows the block), set
 * here, not in the .ui file: see mat-tooltip.h */
static const MatTooltipEntry tooltips[] = {
  { "play_button", N_("Play or pause the animation (Space)") },
  { "loop_button", N_("Loop: when off, playback stops at the end of one cycle") },
  { "time_scale", N_("Time since the instance started (scrub)") },
  { "block_dropdown", N_("Animation block, or a static phase") },
  { "phase_spin", N_("The phase shown when no block is selected (or the block has no keys)") },
  { "shape_dropdown", N_("Shape the material is drawn on (drag the view to turn it, scroll to "
                         "zoom, double-click to reset)") },
  { "background_dropdown", N_("What the material is drawn over, so that additive and "
                              "see-through materials can be judged") },
  { "unlit_button", N_("The raw view: the evaluated diffuse colour (f0–f2) without lighting, "
                       "with the same texture, opacity and blending") },
  { "speed_spin", N_("Playback speed, 0.25× to 4×") },
};

static void
mat_preview_init (MatPreview *self)
{
  mat_style_ensure ();
  gtk_widget_set_layout_manager (GTK_WIDGET (self),
                                 gtk_custom_layout_new (layout_request_mode, measure_layout,
                                                        allocate_layout));
  gtk_widget_init_template (GTK_WIDGET (self));
  mat_tooltip_init_template (GTK_WIDGET (self), MAT_TYPE_PREVIEW, tooltips, G_N_ELEMENTS (tooltips));

  self->block = -1;
  self->orientation = GTK_ORIENTATION_VERTICAL;
  self->shape = MAT_PREVIEW_SHAPE_SPHERE;
  self->background = MAT_PREVIEW_BACKGROUND_CHECKERBOARD;
  self->scene.red = self->scene.green = self->scene.blue = MAT_PREVIEW_DEFAULT_SCENE;
  self->scene.alpha = 1;
  self->show_controls = TRUE;
  self->zoom = 1.0;
  self->rand = g_rand_new_with_seed (REROLL_SEED);
  self->renderer = mat_preview_renderer_new ();

  self->playback_signals = g_signal_group_new (MAT_TYPE_PLAYBACK);
  g_signal_group_connect_swapped (self->playback_signals, "notify::time",
                                  G_CALLBACK (on_playback_time), self);
  g_signal_group_connect_swapped (self->playback_signals, "notify::playing",
                                  G_CALLBACK (on_playback_playing), self);
  g_signal_group_connect_swapped (self->playback_signals, "notify::speed",
                                  G_CALLBACK (on_playback_speed), self);
  g_signal_group_connect_swapped (self->playback_signals, "notify::loop",
                                  G_CALLBACK (on_playback_loop), self);
  g_signal_group_connect_swapped (self->playback_signals, "frame",
                                  G_CALLBACK (on_playback_frame), self);
  set_own_playback (self);
  g_signal_group_set_target (self->playback_signals, self->playback);

  gtk_gl_area_set_required_version (self->gl_area, 3, 3);
  gtk_gl_area_set_has_depth_buffer (self->gl_area, TRUE);
  g_signal_connect (self->gl_area, "create-context", G_CALLBACK (on_create_context), self);
  g_signal_connect (self->gl_area, "realize", G_CALLBACK (on_realize), self);
  g_signal_connect (self->gl_area, "unrealize", G_CALLBACK (on_unrealize), self);
  g_signal_connect (self->gl_area, "render", G_CALLBACK (on_render), self);

  {
    GtkGesture *drag = gtk_gesture_drag_new ();
    GtkGesture *click = gtk_gesture_click_new ();
    GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

    gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
    g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
    g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
    g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
    gtk_widget_add_controller (GTK_WIDGET (self->gl_area), GTK_EVENT_CONTROLLER (drag));
    gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
    g_signal_connect (click, "pressed", G_CALLBACK (on_view_pressed), self);
    gtk_widget_add_controller (GTK_WIDGET (self->gl_area), GTK_EVENT_CONTROLLER (click));
    g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
    gtk_widget_add_controller (GTK_WIDGET (self->gl_area), scroll);
    gtk_widget_set_cursor_from_name (GTK_WIDGET (self->gl_area), "grab");
  }

  self->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->material_signals, "changed",
                                  G_CALLBACK (on_material_changed), self);
  self->phases_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->phases_signals, "items-changed",
                                  G_CALLBACK (on_material_changed), self);
  self->blocks_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->blocks_signals, "items-changed",
                                  G_CALLBACK (on_material_changed), self);

  g_signal_connect_object (self->time_label, "notify::visible", G_CALLBACK (readout_visible_cb),
                           self->time_readout, 0);

  self->scene_button = scene_button_new ();
  gtk_box_append (GTK_BOX (self->scene_box), self->scene_button);
  gtk_widget_set_name (self->scene_button, "scene_button");

  g_signal_connect (self->time_adjustment, "value-changed",
                    G_CALLBACK (on_time_scale_changed), self);
  g_signal_connect (self->phase_adjustment, "value-changed",
                    G_CALLBACK (on_phase_spin_changed), self);
  g_signal_connect (self->speed_adjustment, "value-changed",
                    G_CALLBACK (on_speed_changed), self);
  g_signal_connect (self->block_dropdown, "notify::selected",
                    G_CALLBACK (on_block_selected), self);
  g_signal_connect (self->shape_dropdown, "notify::selected",
                    G_CALLBACK (on_shape_selected), self);
  g_signal_connect (self->background_dropdown, "notify::selected",
                    G_CALLBACK (on_background_selected), self);
  g_signal_connect (self->scene_button, "notify::rgba",
                    G_CALLBACK (on_scene_button_changed), self);

  self->syncing = TRUE;
  mat_drop_down_set_selected (self->shape_dropdown, self->shape);
  self->syncing = FALSE;
  sync_background_controls (self);
  sync_all (self);
  sync_play_button (self);
}

/* ---- public API ------------------------------------------------------- */

GtkWidget *
mat_preview_new (void)
{
  return g_object_new (MAT_TYPE_PREVIEW, NULL);
}

MatMaterial *
mat_preview_get_material (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return self->material;
}

/* A new material starts at its first block (the static phase when it has
 * none) and phase 0; the time, the shape and the playback state stay. */
void
mat_preview_set_material (MatPreview  *self,
                          MatMaterial *material)
{
  int block;

  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (!g_set_object (&self->material, material))
    return;

  g_signal_group_set_target (self->material_signals, material);
  g_signal_group_set_target (self->phases_signals,
                             material != NULL ? mat_material_get_phases (material) : NULL);
  g_signal_group_set_target (self->blocks_signals,
                             material != NULL ? mat_material_get_blocks (material) : NULL);
  self->core_valid = FALSE;
  invalidate_evaluation (self);
  ensure_core (self);

  g_object_freeze_notify (G_OBJECT (self));
  block = self->core != NULL && self->core->n_blocks > 0 ? 0 : -1;
  if (block != self->block)
    {
      self->block = block;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
    }
  if (self->phase != 0)
    {
      self->phase = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PHASE]);
    }
  sync_all (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
  g_object_thaw_notify (G_OBJECT (self));
}

int
mat_preview_get_block (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), -1);
  return self->block;
}

void
mat_preview_set_block (MatPreview *self,
                       int         block)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (block >= -1);

  if (self->block == block)
    return;
  self->block = block;
  invalidate_evaluation (self);
  sync_all (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
}

guint
mat_preview_get_phase (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->phase;
}

void
mat_preview_set_phase (MatPreview *self,
                       guint       phase)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (self->phase == phase)
    return;
  self->phase = phase;
  invalidate_evaluation (self);
  sync_phase_control (self);
  sync_readout (self);
  sync_texture_status (self);
  sync_blend_status (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PHASE]);
}

guint
mat_preview_get_time (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return preview_time (self);
}

/* The clock moves so that the instance time is @time_ms. */
void
mat_preview_set_time (MatPreview *self,
                      guint       time_ms)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  mat_playback_set_time (self->playback, (guint32) time_ms - self->time_offset);
}

guint
mat_preview_get_time_offset (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->time_offset;
}

void
mat_preview_set_time_offset (MatPreview *self,
                             guint       offset_ms)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (self->time_offset == offset_ms)
    return;
  self->time_offset = offset_ms;
  invalidate_evaluation (self);
  sync_for_time (self, TRUE);
  queue_render (self);
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_OFFSET]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
mat_preview_get_playing (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  return mat_playback_get_playing (self->playback);
}

void
mat_preview_set_playing (MatPreview *self,
                         gboolean    playing)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (playing)
    self->last_readout = 0;
  mat_playback_set_playing (self->playback, playing);
}

gboolean
mat_preview_get_loop (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), TRUE);
  return mat_playback_get_loop (self->playback);
}

void
mat_preview_set_loop (MatPreview *self,
                      gboolean    loop)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  mat_playback_set_loop (self->playback, loop);
}

double
mat_preview_get_speed (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 1.0);
  return mat_playback_get_speed (self->playback);
}

void
mat_preview_set_speed (MatPreview *self,
                       double      speed)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  mat_playback_set_speed (self->playback, speed);
}

MatPlayback *
mat_preview_get_playback (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return self->playback;
}

void
mat_preview_set_playback (MatPreview  *self,
                          MatPlayback *playback)
{
  guint32 old_time;
  gboolean old_playing, old_loop;
  double old_speed;

  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (playback == NULL || MAT_IS_PLAYBACK (playback));

  if (playback != NULL && playback == self->playback)
    return;
  if (playback == NULL && self->owns_playback)
    return;

  old_time = preview_time (self);
  old_playing = mat_playback_get_playing (self->playback);
  old_loop = mat_playback_get_loop (self->playback);
  old_speed = mat_playback_get_speed (self->playback);

  if (self->owns_playback)
    {
      mat_playback_set_playing (self->playback, FALSE);
      mat_playback_set_widget (self->playback, NULL);
    }
  g_clear_object (&self->playback);
  if (playback != NULL)
    {
      self->playback = g_object_ref (playback);
      self->owns_playback = FALSE;
    }
  else
    set_own_playback (self);
  g_signal_group_set_target (self->playback_signals, self->playback);

  invalidate_evaluation (self);
  sync_all (self);
  sync_play_button (self);
  sync_speed (self);
  queue_render (self);

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYBACK]);
  if (old_time != preview_time (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
  if (old_playing != mat_playback_get_playing (self->playback))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
  if (old_loop != mat_playback_get_loop (self->playback))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOOP]);
  if (old_speed != mat_playback_get_speed (self->playback))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
mat_preview_get_unlit (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  return self->unlit;
}

void
mat_preview_set_unlit (MatPreview *self,
                       gboolean    unlit)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  unlit = !!unlit;
  if (self->unlit == unlit)
    return;
  self->unlit = unlit;
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNLIT]);
}

gboolean
mat_preview_get_emboss_bump (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  return self->emboss_bump;
}

void
mat_preview_set_emboss_bump (MatPreview *self,
                             gboolean    emboss_bump)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  emboss_bump = !!emboss_bump;
  if (self->emboss_bump == emboss_bump)
    return;
  self->emboss_bump = emboss_bump;
  queue_render (self);
  sync_texture_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMBOSS_BUMP]);
}

MatPreviewShape
mat_preview_get_shape (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), MAT_PREVIEW_SHAPE_SPHERE);
  return self->shape;
}

void
mat_preview_set_shape (MatPreview      *self,
                       MatPreviewShape  shape)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (shape <= MAT_PREVIEW_SHAPE_PLANE);

  if (self->shape == shape)
    return;
  self->shape = shape;
  self->syncing = TRUE;
  mat_drop_down_set_selected (self->shape_dropdown, shape);
  self->syncing = FALSE;
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHAPE]);
}

MatPreviewBackground
mat_preview_get_background (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), MAT_PREVIEW_BACKGROUND_CHECKERBOARD);
  return self->background;
}

void
mat_preview_set_background (MatPreview           *self,
                            MatPreviewBackground  background)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (background <= MAT_PREVIEW_BACKGROUND_SCENE);

  if (self->background == background)
    return;
  self->background = background;
  sync_background_controls (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACKGROUND]);
}

const GdkRGBA *
mat_preview_get_scene_colour (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return &self->scene;
}

void
mat_preview_set_scene_colour (MatPreview    *self,
                              const GdkRGBA *colour)
{
  GdkRGBA opaque;

  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (colour != NULL);

  opaque = *colour;
  opaque.red = CLAMP (opaque.red, 0.0f, 1.0f);
  opaque.green = CLAMP (opaque.green, 0.0f, 1.0f);
  opaque.blue = CLAMP (opaque.blue, 0.0f, 1.0f);
  opaque.alpha = 1;
  if (gdk_rgba_equal (&opaque, &self->scene))
    return;
  self->scene = opaque;
  sync_background_controls (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENE_COLOUR]);
}

guint
mat_preview_get_blend_index (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return blend_field (self)->index;
}

guint
mat_preview_get_blend_mode (MatPreview *self)
{
  const Mat0BlendField *blend;

  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  blend = blend_field (self);
  return blend->mode >= 0 ? (guint) blend->mode : 0;
}

guint
mat_preview_get_random_offset (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->random_offset;
}

void
mat_preview_set_random_offset (MatPreview *self,
                               guint       random_offset)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (self->random_offset == random_offset)
    return;
  set_random_offset_internal (self, random_offset);
  sync_readout (self);
  sync_texture_status (self);
  sync_blend_status (self);
}

/* As the engine: R = rand () % period of the shown block (0 without one). */
void
mat_preview_reroll (MatPreview *self)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  mat_preview_set_random_offset (self, draw_random_offset (self));
}

MatTextureLibrary *
mat_preview_get_textures (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return self->textures;
}

/* The GL textures are made from the library's pixels once per name: a
 * texture replaced or given other cells drops them, and the next frame
 * uploads what the library holds now. */
static void
drop_gl_textures (MatPreview *self)
{
  if (self->gl_ready)
    {
      gtk_gl_area_make_current (self->gl_area);
      if (gtk_gl_area_get_error (self->gl_area) == NULL)
        mat_preview_renderer_clear_textures (self->renderer);
    }
}

static void
textures_changed_cb (MatPreview *self)
{
  drop_gl_textures (self);
  sync_texture_status (self);
  queue_render (self);
}

void
mat_preview_set_textures (MatPreview        *self,
                          MatTextureLibrary *textures)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures));

  if (self->textures == textures)
    return;
  if (self->textures != NULL)
    g_signal_handlers_disconnect_by_data (self->textures, self);
  g_set_object (&self->textures, textures);
  if (textures != NULL)
    {
      g_signal_connect_object (textures, "changed", G_CALLBACK (textures_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (textures, "items-changed", G_CALLBACK (textures_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }
  if (self->gl_ready)
    {
      gtk_gl_area_make_current (self->gl_area);
      if (gtk_gl_area_get_error (self->gl_area) == NULL)
        mat_preview_renderer_clear_textures (self->renderer);
    }
  sync_texture_status (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

double
mat_preview_get_yaw (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0.0);
  return self->yaw;
}

/* Wrapped to -180..180. */
void
mat_preview_set_yaw (MatPreview *self,
                     double      yaw)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (!isfinite (yaw))
    yaw = 0.0;
  yaw = fmod (yaw, 360.0);
  if (yaw > 180.0)
    yaw -= 360.0;
  else if (yaw < -180.0)
    yaw += 360.0;
  if (self->yaw == yaw)
    return;
  self->yaw = yaw;
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_YAW]);
}

double
mat_preview_get_pitch (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0.0);
  return self->pitch;
}

/* Clamped to -90..90. */
void
mat_preview_set_pitch (MatPreview *self,
                       double      pitch)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (!isfinite (pitch))
    pitch = 0.0;
  pitch = CLAMP (pitch, -90.0, 90.0);
  if (self->pitch == pitch)
    return;
  self->pitch = pitch;
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PITCH]);
}

double
mat_preview_get_zoom (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 1.0);
  return self->zoom;
}

void
mat_preview_set_zoom (MatPreview *self,
                      double      zoom)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (!isfinite (zoom))
    zoom = 1.0;
  zoom = CLAMP (zoom, MAT_PREVIEW_ZOOM_MIN, MAT_PREVIEW_ZOOM_MAX);
  if (self->zoom == zoom)
    return;
  self->zoom = zoom;
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

void
mat_preview_reset_view (MatPreview *self)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  g_object_freeze_notify (G_OBJECT (self));
  mat_preview_set_yaw (self, 0.0);
  mat_preview_set_pitch (self, 0.0);
  mat_preview_set_zoom (self, 1.0);
  if (self->rotation != 0.0)
    {
      self->rotation = 0.0;
      queue_render (self);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
mat_preview_get_show_controls (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), TRUE);
  return self->show_controls;
}

void
mat_preview_set_show_controls (MatPreview *self,
                               gboolean    show_controls)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  show_controls = !!show_controls;
  if (self->show_controls == show_controls)
    return;
  self->show_controls = show_controls;
  gtk_widget_set_visible (self->controls, show_controls);
  sync_blend_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_CONTROLS]);
}

gboolean
mat_preview_get_evaluation (MatPreview      *self,
                            PhaseEvalResult *result)
{
  const PhaseEvalResult *eval;

  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  eval = ensure_evaluation (self);
  if (eval == NULL)
    return FALSE;
  *result = *eval;
  return TRUE;
}

const char *
mat_preview_get_error (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return self->error;
}

static gboolean
on_capture_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Renders one frame with the read-back armed; %FALSE when none came. */
static gboolean
capture (MatPreview *self)
{
  gboolean timed_out = FALSE;
  guint timeout_id;

  wait_for_gl (self, g_get_monotonic_time () + CAPTURE_TIMEOUT_US);
  if (!self->gl_ready || self->error != NULL)
    return FALSE;
  self->capture_pending = TRUE;
  gtk_gl_area_queue_render (self->gl_area);
  timeout_id = g_timeout_add (CAPTURE_TIMEOUT_US / 1000, on_capture_timeout, &timed_out);
  while (self->capture_pending && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
  self->capture_pending = FALSE;
  return !timed_out && self->capture != NULL;
}

GdkTexture *
mat_preview_read_frame_for_test (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);

  if (!capture (self))
    return NULL;
  return gdk_memory_texture_new (self->capture_width, self->capture_height,
                                 GDK_MEMORY_R8G8B8A8, self->capture,
                                 (gsize) self->capture_width * 4);
}

gboolean
mat_preview_read_pixel_for_test (MatPreview *self,
                                 int         x,
                                 int         y,
                                 guint8      rgba[4])
{
  int scale;
  const guint8 *data;

  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (!capture (self))
    return FALSE;
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self->gl_area));
  x *= scale;
  y *= scale;
  if (x < 0 || y < 0 || x >= self->capture_width || y >= self->capture_height)
    return FALSE;
  data = g_bytes_get_data (self->capture, NULL);
  memcpy (rgba, data + ((gsize) y * (gsize) self->capture_width + (gsize) x) * 4, 4);
  return TRUE;
}

void
mat_preview_get_draw_info_for_test (MatPreview         *self,
                                    MatPreviewDrawInfo *info)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (info != NULL);

  mat_preview_renderer_get_draw_info (self->renderer, info);
}

guint64
mat_preview_get_n_renders (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->n_renders;
}

guint64
mat_preview_get_n_evaluations (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->n_evaluations;
}

GtkWidget *
mat_preview_get_test_widget (MatPreview *self,
                             const char *name)
{
  static const struct { const char *name; gsize offset; } widgets[] = {
    { "play_button", G_STRUCT_OFFSET (MatPreview, play_button) },
    { "loop_button", G_STRUCT_OFFSET (MatPreview, loop_button) },
    { "time_scale", G_STRUCT_OFFSET (MatPreview, time_scale) },
    { "time_label", G_STRUCT_OFFSET (MatPreview, time_label) },
    { "block_dropdown", G_STRUCT_OFFSET (MatPreview, block_dropdown) },
    { "phase_spin", G_STRUCT_OFFSET (MatPreview, phase_spin) },
    { "shape_dropdown", G_STRUCT_OFFSET (MatPreview, shape_dropdown) },
    { "unlit_button", G_STRUCT_OFFSET (MatPreview, unlit_button) },
    { "speed_spin", G_STRUCT_OFFSET (MatPreview, speed_spin) },
    { "reroll_button", G_STRUCT_OFFSET (MatPreview, reroll_button) },
    { "texture_label", G_STRUCT_OFFSET (MatPreview, texture_label) },
    { "gl_area", G_STRUCT_OFFSET (MatPreview, gl_area) },
    { "error_label", G_STRUCT_OFFSET (MatPreview, error_label) },
    { "controls", G_STRUCT_OFFSET (MatPreview, controls) },
    { "background_dropdown", G_STRUCT_OFFSET (MatPreview, background_dropdown) },
    { "scene_button", G_STRUCT_OFFSET (MatPreview, scene_button) },
    { "blend_label", G_STRUCT_OFFSET (MatPreview, blend_label) },
  };

  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (widgets); i++)
    if (strcmp (widgets[i].name, name) == 0)
      return G_STRUCT_MEMBER (GtkWidget *, self, widgets[i].offset);
  return NULL;
}
