/* mat-flags-inspector.c - placeholder, to be written */
#include "config.h"

#include "mat-flags-inspector.h"

struct _MatFlagsInspector
{
  GtkWidget    parent_instance;
  MatMaterial *material;
};

G_DEFINE_FINAL_TYPE (MatFlagsInspector, mat_flags_inspector, GTK_TYPE_WIDGET)

static void
mat_flags_inspector_dispose (GObject *object)
{
  MatFlagsInspector *self = MAT_FLAGS_INSPECTOR (object);

  g_clear_object (&self->material);
  G_OBJECT_CLASS (mat_flags_inspector_parent_class)->dispose (object);
}

static void
mat_flags_inspector_class_init (MatFlagsInspectorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = mat_flags_inspector_dispose;
}

static void
mat_flags_inspector_init (MatFlagsInspector *self)
{
}

GtkWidget *
mat_flags_inspector_new (void)
{
  return g_object_new (MAT_TYPE_FLAGS_INSPECTOR, NULL);
}

MatMaterial *
mat_flags_inspector_get_material (MatFlagsInspector *self)
{
  g_return_val_if_fail (MAT_IS_FLAGS_INSPECTOR (self), NULL);
  return self->material;
}

void
mat_flags_inspector_set_material (MatFlagsInspector *self, MatMaterial *material)
{
  g_return_if_fail (MAT_IS_FLAGS_INSPECTOR (self));
  g_set_object (&self->material, material);
}
