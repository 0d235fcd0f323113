# Renders a Deployment, a ConfigMap and a Service per service with the
# module in modules/app, and creates one resource per manifest with
# for_each. The image comes from a resource, so it is unknown until apply,
# yet the for_each keys are known at plan time: the provider functions
# render everything that does not depend on the image.
#
#   make example EX=kubernetes               # terraform plan
#   make example EX=kubernetes TF_CMD=apply  # terraform apply

terraform {
  required_version = ">= 1.8"
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

provider "celyaml" {}

variable "release" {
  description = "Release tag of the shop image."
  type        = string
  default     = "2024.06.1"
}

# Stands in for a resource whose attribute only exists after apply, such as
# aws_ecr_image.shop.image_uri or a digest produced by a build. The output
# of terraform_data is unknown while its creation is planned.
resource "terraform_data" "image" {
  input = "registry.acme.com/shop:${var.release}"
}

module "shop" {
  source = "./modules/app"

  app         = "shop"
  namespace   = "shop"
  environment = "prod"
  image       = terraform_data.image.output

  services = [
    {
      name     = "cart"
      port     = 8080
      replicas = 3
      public   = true
      config = {
        CART_TTL = "30m"
      }
    },
    {
      name = "catalog"
      port = 8081
      config = {
        CACHE_SIZE = "512"
        SEARCH_URL = "http://search.shop.svc:9200"
      }
    },
  ]
}

output "manifest_ids" {
  description = "for_each keys of the rendered manifests: group/Kind/namespace/name."
  value       = module.shop.manifest_ids
}
