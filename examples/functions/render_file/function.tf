resource "terraform_data" "image" {
  input = "registry.example.com/cart:1.4.2" # e.g. aws_ecr_image.cart.image_uri
}

locals {
  # The image is unknown until apply; everything else renders at plan time
  # and only the image reads "(known after apply)".
  documents = provider::celyaml::render_file("${path.module}/templates/app.yaml", {
    name     = "cart"
    env      = "prod"
    replicas = 3
    image    = terraform_data.image.output
  })
}

output "kinds" {
  value = [for d in local.documents : d.kind]
}
