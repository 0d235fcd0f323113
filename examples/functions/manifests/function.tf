resource "terraform_data" "image" {
  input = "registry.example.com/cart:1.4.2" # e.g. aws_ecr_image.cart.image_uri
}

# Keys such as "apps/Deployment/shop/cart" and "_/Service/shop/cart" are
# known at plan time even though the image is not, so for_each works
# before the image exists.
resource "terraform_data" "manifest" { # e.g. kubernetes_manifest
  for_each = provider::celyaml::manifests(
    provider::celyaml::render_file("${path.module}/templates/app.yaml", {
      name  = "cart"
      image = terraform_data.image.output
    })
  )
  input = each.value # kubernetes_manifest: manifest = each.value
}

output "manifest_ids" {
  value = keys(terraform_data.manifest) # ["_/Service/shop/cart", "apps/Deployment/shop/cart"]
}
