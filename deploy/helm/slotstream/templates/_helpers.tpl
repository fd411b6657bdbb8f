{{/* Names and labels. */}}
{{- define "slotstream.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "slotstream.labels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/component: {{ .component }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "slotstream.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* One role as a Deployment: dict "root" $ "component" "<name>" "v" <its values>. */}}
{{- define "slotstream.workload" -}}
{{- $root := .root -}}
{{- $v := .v -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "slotstream.fullname" $root }}-{{ .component }}
  labels:
    {{- include "slotstream.labels" . | nindent 4 }}
spec:
  replicas: {{ $v.replicas }}
  selector:
    matchLabels:
      {{- include "slotstream.selector" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "slotstream.selector" . | nindent 8 }}
    spec:
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      {{- if gt (int $v.replicas) 1 }}
      # Copies on different nodes where possible: an ingest's standby must outlive the active one's node.
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm:
                topologyKey: kubernetes.io/hostname
                labelSelector:
                  matchLabels:
                    {{- include "slotstream.selector" . | nindent 20 }}
      {{- end }}
      containers:
        - name: slotstream
          image: "{{ $root.Values.image.repository }}:{{ $root.Values.image.tag }}"
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          args: [{{ $v.role | quote }}]
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          env:
            - name: API_HOST
              value: '0.0.0.0'
            - name: METRICS_PORT
              value: {{ $root.Values.ports.metrics | quote }}
            {{- if eq $v.role "api" }}
            - name: GRPC_PORT
              value: {{ $root.Values.ports.grpc | quote }}
            - name: RPC_PORT
              value: {{ $root.Values.ports.jsonrpc | quote }}
            - name: PUBSUB_PORT
              value: {{ $root.Values.ports.pubsub | quote }}
            {{- if eq (default "all" $v.env.API_SERVE) "streams" }}
            # A stream-only api reads its views from the engine api's internal views endpoint (its Service).
            - name: VIEWS_URL
              value: {{ printf "http://%s-api:%v" (include "slotstream.fullname" $root) $root.Values.ports.views | quote }}
            {{- else }}
            - name: VIEWS_PORT
              value: {{ $root.Values.ports.views | quote }}
            {{- end }}
            {{- end }}
            {{- range $name, $value := merge (dict) $v.env $root.Values.env }}
            - name: {{ $name }}
              value: {{ $value | quote }}
            {{- end }}
            {{- range $name, $ref := merge (dict) $v.secretEnv $root.Values.secretEnv }}
            - name: {{ $name }}
              valueFrom:
                secretKeyRef:
                  name: {{ $ref.secret }}
                  key: {{ $ref.key }}
            {{- end }}
          ports:
            - name: metrics
              containerPort: {{ $root.Values.ports.metrics }}
            {{- if eq $v.role "api" }}
            - name: grpc
              containerPort: {{ $root.Values.ports.grpc }}
            - name: jsonrpc
              containerPort: {{ $root.Values.ports.jsonrpc }}
            - name: pubsub
              containerPort: {{ $root.Values.ports.pubsub }}
            {{- if ne (default "all" $v.env.API_SERVE) "streams" }}
            - name: views
              containerPort: {{ $root.Values.ports.views }}
            {{- end }}
            {{- end }}
          livenessProbe:
            httpGet:
              path: /health
              port: metrics
            {{- toYaml $root.Values.probes.liveness | nindent 12 }}
          readinessProbe:
            httpGet:
              path: /health
              port: metrics
            {{- toYaml $root.Values.probes.readiness | nindent 12 }}
          resources:
            {{- toYaml $v.resources | nindent 12 }}
          volumeMounts:
            - name: data
              mountPath: /data
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: data
          emptyDir: {}
        - name: tmp
          emptyDir: {}
{{- end -}}

{{/* A role's PodDisruptionBudget. */}}
{{- define "slotstream.pdb" -}}
{{- if .v.pdb.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "slotstream.fullname" .root }}-{{ .component }}
  labels:
    {{- include "slotstream.labels" . | nindent 4 }}
spec:
  {{- if hasKey .v.pdb "minAvailable" }}
  minAvailable: {{ .v.pdb.minAvailable }}
  {{- else }}
  maxUnavailable: {{ .v.pdb.maxUnavailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "slotstream.selector" . | nindent 6 }}
{{- end }}
{{- end -}}

{{/* A role's Service: metrics always, and the interfaces in .v.serve. */}}
{{- define "slotstream.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "slotstream.fullname" .root }}-{{ .component }}
  labels:
    {{- include "slotstream.labels" . | nindent 4 }}
spec:
  type: {{ if .v.service }}{{ .v.service.type }}{{ else }}ClusterIP{{ end }}
  selector:
    {{- include "slotstream.selector" . | nindent 4 }}
  ports:
    - name: metrics
      port: {{ .root.Values.ports.metrics }}
      targetPort: metrics
    {{- range .v.serve }}
    - name: {{ . }}
      port: {{ index $.root.Values.ports . }}
      targetPort: {{ . }}
      {{- if eq . "grpc" }}
      appProtocol: grpc
      {{- end }}
    {{- end }}
{{- end -}}
