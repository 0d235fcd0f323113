# render(template, context) returns the document, or a tuple when the
# template has several. Write CEL-YAML's ${{ }} as $${{ }} inside HCL strings.
locals {
  service = provider::celyaml::render(<<-EOT
    apiVersion: v1
    kind: Service
    metadata:
      name:
        $eval: "$${{ name }}"
    spec:
      type:
        $if: "public"
        $then: LoadBalancer
        $else: ClusterIP
      ports:
        - port: 80
          targetPort:
            $eval: "$${{ port }}"
  EOT
  , { name = "cart", port = 8080, public = false })
}

output "service_type" {
  value = local.service.spec.type # "ClusterIP"
}
